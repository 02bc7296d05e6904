import { CAPTION_LIMITS, MESSAGES, messageTemplates } from '@branchify/shared';
import { addVideo, createFunnel, freePlan, subscribedUser, textElement } from './support/content';
import { client } from './support/http';
import type { Session } from './support/users';
import { useApiSuite } from './support/suite';

/**
 * A funnel's caption tracks travel with it: Export writes each video's tracks, Import gives them to
 * the videos it adds (checked as an upload is) and names each one it leaves out, before anything is
 * made. An imported funnel's title is one the importer's funnels do not have yet.
 */
const suite = useApiSuite();

const VTT = `WEBVTT

1
00:00:00.500 --> 00:00:03.000 align:center
Hello <b>viewer</b>
`;

const SRT = `1
00:00:00,500 --> 00:00:03,000
Bonjour <i>spectateur</i>
`;

type Track = { language: string; label: string; vtt: string };
type ExportFile = {
  funnel: { title: string };
  library: Array<{ ref: string; title: string; captions?: Track[] }>;
};
type Plan = {
  title: string;
  captions: {
    added: Array<{ ref: string; video: string; language: string; label: string }>;
    skipped: Array<{ ref: string; video: string; language: string | null; label: string | null; reason: string }>;
  };
};

const uploadTrack = async (owner: Session, videoId: number, content: string, name: string, language: string, label: string) => {
  const res = await owner.http
    .upload(`/api/videos/${videoId}/captions`, owner.token)
    .field('language', language)
    .field('label', label)
    .attach('file', Buffer.from(content), name);
  expect(res.status).toBe(201);
  return res.body.data as { url: string };
};

/** The file, sent as the dashboard sends it: one .json file. */
const importFile = (user: Session, file: unknown, dryRun = false) =>
  user.http.upload(`/api/funnels/import${dryRun ? '?dry_run=true' : ''}`, user.token).attach('file', Buffer.from(JSON.stringify(file)), 'funnel.funnel.json');

/** Each of a video's tracks with its file as viewers get it. */
const tracksOf = async (user: Session, videoId: number) => {
  const listed = (await user.http.get(`/api/videos/${videoId}/captions`, user.token)).body.data as Array<{
    language: string;
    label: string;
    url: string;
    cues: number;
  }>;
  return Promise.all(listed.map(async (t) => ({ language: t.language, label: t.label, cues: t.cues, file: (await client().get(t.url)).text })));
};

let owner: Session;
let planId: number;
let file: ExportFile;
let funnelId: number;
const TITLE = `Captioned funnel ${Date.now()}`;

beforeAll(async () => {
  planId = (await freePlan(suite.admin)).id;
  owner = await subscribedUser(suite.admin, planId);
  const talk = await addVideo(owner, { provider: 'generic', url: 'https://cdn.example.com/talk.mp4', title: 'Talk' });
  const outro = await addVideo(owner, { title: 'Outro' });
  await uploadTrack(owner, talk.id, VTT, 'talk.vtt', 'en', 'English');
  await uploadTrack(owner, talk.id, SRT, 'talk.srt', 'fr', 'Français');
  const funnel = await createFunnel(owner, { title: TITLE });
  funnelId = funnel.id;
  const saved = await owner.http.put(
    `/api/funnels/${funnel.id}`,
    {
      title: TITLE,
      description: '',
      settings: { enable_resume_play: false },
      videos: [
        { id: talk.id, editor_id: 'talk', elements: [textElement('hi', 'talk', 'Hi')] },
        { id: outro.id, editor_id: 'outro', elements: [] },
      ],
    },
    owner.token,
  );
  expect(saved.status).toBe(200);
  const exported = await owner.http.get(`/api/funnels/${funnel.id}/export`, owner.token);
  expect(exported.status).toBe(200);
  file = JSON.parse(exported.text) as ExportFile;
});

describe('caption tracks in export and import', () => {
  it('exports each video’s tracks as stored: label, language and the WebVTT text', async () => {
    const stored = await tracksOf(owner, (await owner.http.get(`/api/funnels/${funnelId}`, owner.token)).body.data.videos[0].video.id);
    expect(file.library[0]!.captions).toEqual(
      stored.map((t) => ({ language: t.language, label: t.label, vtt: t.file })).sort((a, b) => a.language.localeCompare(b.language)),
    );
    expect(file.library[0]!.captions!.map((t) => t.language)).toEqual(['en', 'fr']);
    // The SRT upload is stored (and exported) as WebVTT.
    expect(file.library[0]!.captions![1]!.vtt).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:03.000\nBonjour <i>spectateur</i>\n');
    // A video without tracks carries none.
    expect(file.library[1]).not.toHaveProperty('captions');
  });

  it('gives an imported video the tracks of the file, served as they were at home', async () => {
    const importer = await subscribedUser(suite.admin, planId);
    const dry = await importFile(importer, file, true);
    expect(dry.status).toBe(200);
    expect((dry.body.data.plan as Plan).captions).toEqual({
      added: [
        { ref: 'video-1', video: 'Talk', language: 'en', label: 'English' },
        { ref: 'video-1', video: 'Talk', language: 'fr', label: 'Français' },
      ],
      skipped: [],
    });
    const made = await importFile(importer, file);
    expect(made.status).toBe(201);
    const video = made.body.data.videos[0].video as { id: number; title: string };
    expect(video.title).toBe('Talk');
    expect(await tracksOf(importer, video.id)).toEqual([
      { language: 'en', label: 'English', cues: 1, file: file.library[0]!.captions![0]!.vtt },
      { language: 'fr', label: 'Français', cues: 1, file: file.library[0]!.captions![1]!.vtt },
    ]);
    // The player payload of the new funnel lists them.
    const payload = (await client().get(`/api/funnels/${made.body.data.identifier}/player`)).body.data;
    expect(payload.videos[0].captions.map((t: { language: string }) => t.language)).toEqual(['en', 'fr']);
  });

  it('leaves out each track an upload would refuse, names it and why, and imports the rest', async () => {
    const importer = await subscribedUser(suite.admin, planId);
    const tampered = structuredClone(file);
    tampered.library[0]!.captions!.push(
      { language: 'de', label: 'Deutsch', vtt: 'WEBVTT\n\n00:00:05.000 --> 00:00:01.000\nBackwards\n' },
      { language: 'es', label: 'Español', vtt: `WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n${'a'.repeat(CAPTION_LIMITS.maxFileKb * 1024)}\n` },
      { language: 'not a language!', label: 'Klingon', vtt: VTT },
      { language: 'en', label: 'English again', vtt: VTT },
    );
    tampered.library[1]!.captions = [{ language: 'it', label: 'Italiano', vtt: VTT }];

    const dry = await importFile(importer, tampered, true);
    expect(dry.status).toBe(200);
    const plan = dry.body.data.plan as Plan;
    expect(plan.captions.added.map((t) => [t.video, t.language])).toEqual([
      ['Talk', 'en'],
      ['Talk', 'fr'],
      ['Outro', 'it'],
    ]);
    expect(plan.captions.skipped).toEqual([
      { ref: 'video-1', video: 'Talk', language: 'de', label: 'Deutsch', reason: 'Line 3: the cue ends before it starts.' },
      { ref: 'video-1', video: 'Talk', language: 'es', label: 'Español', reason: messageTemplates.captionFileTooLarge(CAPTION_LIMITS.maxFileKb) },
      { ref: 'video-1', video: 'Talk', language: 'not a language!', label: 'Klingon', reason: MESSAGES.captionLanguageInvalid },
      { ref: 'video-1', video: 'Talk', language: 'en', label: 'English again', reason: messageTemplates.captionLanguageTaken('en') },
    ]);

    const made = await importFile(importer, tampered);
    expect(made.status).toBe(201);
    expect(made.body.data.plan.captions.skipped).toHaveLength(4);
    const [talk, outro] = made.body.data.videos.map((v: { video: { id: number } }) => v.video.id) as number[];
    expect((await tracksOf(importer, talk!)).map((t) => t.language)).toEqual(['en', 'fr']);
    expect((await tracksOf(importer, outro!)).map((t) => t.language)).toEqual(['it']);
  });

  it('into the account that exported it: a title of its own, and the tracks its videos have already left out', async () => {
    const copy = await owner.http.get(`/api/funnels/${funnelId}/duplicate`, owner.token);
    expect(copy.body.data.title).toBe(`${TITLE} (copy)`);

    const dry = await importFile(owner, file, true);
    const plan = dry.body.data.plan as Plan;
    // The duplicate's rule: the first copy title the owner's funnels do not have.
    expect(plan.title).toBe(`${TITLE} (copy 2)`);
    expect(plan.captions.added).toEqual([]);
    expect(plan.captions.skipped.map((t) => [t.language, t.reason])).toEqual([
      ['en', messageTemplates.captionLanguageTaken('en')],
      ['fr', messageTemplates.captionLanguageTaken('fr')],
    ]);
    const made = await importFile(owner, file);
    expect(made.status).toBe(201);
    expect(made.body.data.title).toBe(`${TITLE} (copy 2)`);
    // Imported again: the next free title.
    expect((await importFile(owner, file, true)).body.data.plan.title).toBe(`${TITLE} (copy 3)`);
  });
});
