import request from 'supertest';
import { CAPTION_LIMITS, MESSAGES, messageTemplates } from '@branchify/shared';
import { addVideo, freePlan, publishedFunnel, subscribedUser } from './support/content';
import { baseUrl, client } from './support/http';
import { registerUser, type Session } from './support/users';
import { useApiSuite } from './support/suite';

const VTT = `WEBVTT

1
00:00:00.500 --> 00:00:03.000 align:center
Hello <b>viewer</b>

00:00:03.000 --> 00:00:05.000
<script>alert(1)</script> stays text
`;

const SRT = `1
00:00:00,500 --> 00:00:03,000
Bonjour <i>spectateur</i>

2
00:00:03,000 --> 00:00:05,000
Deuxième ligne
`;

type Fields = { language?: string; label?: string };

const upload = (
  session: Session | null,
  videoId: number,
  file?: { content: string | Buffer; name: string },
  fields: Fields = { language: 'en', label: 'English' },
) => {
  const http = session?.http ?? client();
  const req = request(baseUrl()).post(`/api/videos/${videoId}/captions`).set('X-Forwarded-For', http.ip).set('Accept', 'application/json');
  if (session) req.set('Authorization', `Bearer ${session.token}`);
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) void req.field(name, value);
  return file ? req.attach('file', Buffer.from(file.content), file.name) : req;
};

const suite = useApiSuite();
let creator: Session;
let videoId: number;
let planId: number;
/** A creator whose plan allows direct video URLs. */
const newCreator = () => subscribedUser(suite.admin, planId);

beforeAll(async () => {
  planId = (await freePlan(suite.admin)).id;
  creator = await newCreator();
  videoId = (await addVideo(creator, { provider: 'generic', url: 'https://cdn.example.com/clip.mp4', title: 'Captioned' })).id;
});
afterAll(async () => {
  await suite.admin.http.delete(`/api/admin/users/${creator.id}`, suite.admin.token);
});

describe('POST /api/videos/{id}/captions', () => {
  it('stores a .vtt track, lists it on the video and serves it to anyone as plain WebVTT text', async () => {
    const res = await upload(creator, videoId, { content: VTT, name: 'english.vtt' }, { language: 'en-us', label: ' English ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: MESSAGES.captionTrackAdded, data: { language: 'en-US', label: 'English', cues: 2 } });
    expect(res.body.data.url).toMatch(/^\/api\/captions\/[A-Za-z0-9_-]{32}$/);

    const row = await suite.db('branchify_caption_tracks').where({ id: res.body.data.id }).first();
    expect(row).toMatchObject({ owner_id: creator.id, video_id: videoId, language: 'en-US', cues: 2 });

    const listed = await creator.http.get(`/api/videos/${videoId}/captions`, creator.token);
    expect(listed.body.data.map((t: { language: string }) => t.language)).toEqual(['en-US']);
    const library = await creator.http.get('/api/videos', creator.token);
    const video = library.body.data.data.find((v: { id: number }) => v.id === videoId);
    expect(video.captions).toEqual([res.body.data]);

    // Anonymous, no token: the file, as text that is never sniffed into anything else.
    const file = await client().get(res.body.data.url);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.text).toBe(
      'WEBVTT\n\n1\n00:00:00.500 --> 00:00:03.000 align:center\nHello <b>viewer</b>\n\n00:00:03.000 --> 00:00:05.000\n<script>alert(1)</script> stays text\n',
    );
    const again = await client().get(res.body.data.url).set('If-None-Match', file.headers.etag);
    expect(again.status).toBe(304);
  });

  it('converts an .srt file to WebVTT on upload', async () => {
    const res = await upload(creator, videoId, { content: SRT, name: 'french.SRT' }, { language: 'fr', label: 'Français' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ language: 'fr', label: 'Français', cues: 2 });
    const file = await client().get(res.body.data.url);
    expect(file.text).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:03.000\nBonjour <i>spectateur</i>\n\n00:00:03.000 --> 00:00:05.000\nDeuxième ligne\n');
  });

  it('refuses a file that is not valid with a 422 naming the line that fails, and stores nothing', async () => {
    const before = await suite.db('branchify_caption_tracks').where({ video_id: videoId }).count({ n: '*' });
    const broken = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfine\n\n00:00:03.000 -> 00:00:04.000\nno arrow\n';
    const res = await upload(creator, videoId, { content: broken, name: 'broken.vtt' }, { language: 'de', label: 'Deutsch' });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.errors.file[0]).toMatch(/^Line 6: expected a cue timing such as 00:00:01\.000 --> 00:00:04\.000/);
    expect(res.body.message).toBe(res.body.errors.file[0]);

    const backwards = await upload(
      creator,
      videoId,
      { content: '1\n00:00:05,000 --> 00:00:01,000\nback\n', name: 'back.srt' },
      { language: 'de', label: 'Deutsch' },
    );
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors.file).toEqual(['Line 2: the cue ends before it starts.']);

    const header = await upload(creator, videoId, { content: 'NOT VTT\n', name: 'x.vtt' }, { language: 'de', label: 'Deutsch' });
    expect(header.body.errors.file).toEqual(['Line 1: a WebVTT file starts with the line WEBVTT.']);

    const binary = await upload(
      creator,
      videoId,
      { content: Buffer.from([0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0a, 0xff, 0xfe]), name: 'x.vtt' },
      { language: 'de', label: 'D' },
    );
    expect(binary.status).toBe(422);
    expect(binary.body.errors.file[0]).toMatch(/^Line 2: is not UTF-8 text/);

    const type = await upload(creator, videoId, { content: VTT, name: 'captions.txt' }, { language: 'de', label: 'Deutsch' });
    expect(type.body.errors.file).toEqual([MESSAGES.captionFileType]);
    const none = await upload(creator, videoId, undefined, { language: 'de', label: 'Deutsch' });
    expect(none.body.errors.file).toEqual([MESSAGES.captionFileRequired]);

    const fields = await upload(creator, videoId, { content: VTT, name: 'x.vtt' }, { language: 'not a language', label: '' });
    expect(fields.status).toBe(422);
    expect(fields.body.errors.language).toEqual([MESSAGES.captionLanguageInvalid]);
    expect(fields.body.errors.label).toEqual(['The label field is required.']);

    const after = await suite.db('branchify_caption_tracks').where({ video_id: videoId }).count({ n: '*' });
    expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));
  });

  it('refuses a file over the size limit, a second track in a language, and more tracks than a video holds', async () => {
    const big = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'x'.repeat(CAPTION_LIMITS.maxFileKb * 1024)}\n`;
    const tooBig = await upload(creator, videoId, { content: big, name: 'big.vtt' }, { language: 'es', label: 'Español' });
    // Refused as it arrives, like an image over its limit: a 422 on the field.
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors.file).toEqual([messageTemplates.captionFileTooLarge(CAPTION_LIMITS.maxFileKb)]);

    const same = await upload(creator, videoId, { content: VTT, name: 'again.vtt' }, { language: 'EN-us', label: 'English again' });
    expect(same.status).toBe(422);
    expect(same.body.errors.language).toEqual([messageTemplates.captionLanguageTaken('en-US')]);

    const other = (await addVideo(creator, { provider: 'generic', url: 'https://cdn.example.com/many.mp4' })).id;
    const languages = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt', 'sv', 'da'];
    const answers: number[] = [];
    for (const language of languages) answers.push((await upload(creator, other, { content: VTT, name: 'c.vtt' }, { language, label: language })).status);
    expect(answers).toEqual([...Array(CAPTION_LIMITS.maxTracksPerVideo).fill(201), 422]);
  });

  it('answers 404 for another creator’s video, 401 without a session and 403 before the email is verified', async () => {
    const stranger = await newCreator();
    const res = await upload(stranger, videoId, { content: VTT, name: 'x.vtt' }, { language: 'it', label: 'Italiano' });
    expect(res.status).toBe(404);
    expect((await stranger.http.get(`/api/videos/${videoId}/captions`, stranger.token)).status).toBe(404);
    const track = (await creator.http.get(`/api/videos/${videoId}/captions`, creator.token)).body.data[0];
    expect((await stranger.http.delete(`/api/videos/${videoId}/captions/${track.id}`, stranger.token)).status).toBe(404);
    // Their own video, another video's track id: not found either.
    const theirs = (await addVideo(stranger, { provider: 'generic', url: 'https://cdn.example.com/theirs.mp4' })).id;
    expect((await stranger.http.delete(`/api/videos/${theirs}/captions/${track.id}`, stranger.token)).status).toBe(404);
    expect(await suite.db('branchify_caption_tracks').where({ id: track.id }).first()).toBeTruthy();

    expect((await upload(null, videoId, { content: VTT, name: 'x.vtt' })).status).toBe(401);
    const unverified = await registerUser();
    expect((await upload(unverified, videoId, { content: VTT, name: 'x.vtt' })).status).toBe(403);
    await suite.admin.http.delete(`/api/admin/users/${stranger.id}`, suite.admin.token);
    await suite.admin.http.delete(`/api/admin/users/${unverified.id}`, suite.admin.token);
  });
});

describe('caption tracks for viewers', () => {
  it('lists each video’s tracks in the player payload, with a URL anyone can fetch, and drops a deleted track', async () => {
    const { owner, funnel, a } = await publishedFunnel(suite.admin);
    const track = (await upload(owner, a.id, { content: VTT, name: 'en.vtt' }, { language: 'en', label: 'English' })).body.data;
    const payload = (await client().get(`/api/funnels/${funnel.identifier}/player`)).body.data;
    expect(payload.videos[0].captions).toEqual([{ id: track.id, language: 'en', label: 'English', url: track.url }]);
    expect(payload.videos[1].captions).toEqual([]);
    // The funnel page inlines the same payload.
    const page = await client().get(`/player/${funnel.identifier}`);
    expect(page.text).toContain(track.url);
    expect((await client().get(track.url)).status).toBe(200);

    // The editor sees the tracks on the funnel's videos too.
    const editor = await owner.http.get(`/api/funnels/${funnel.id}`, owner.token);
    expect(editor.body.data.videos[0].video.captions).toEqual([track]);

    const removed = await owner.http.delete(`/api/videos/${a.id}/captions/${track.id}`, owner.token);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(MESSAGES.captionTrackDeleted);
    expect(await suite.db('branchify_caption_tracks').where({ id: track.id }).first()).toBeUndefined();
    expect((await client().get(track.url)).status).toBe(404);
    expect((await client().get(`/api/funnels/${funnel.identifier}/player`)).body.data.videos[0].captions).toEqual([]);
    await suite.admin.http.delete(`/api/admin/users/${owner.id}`, suite.admin.token);
  });

  it('answers 404 for a key that does not exist or is malformed, without a session', async () => {
    expect((await client().get('/api/captions/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await client().get('/api/captions/..%2F..%2Fetc')).status).toBe(404);
  });

  it('bounds what one address can fetch (the viewers’ budget), then answers 429', async () => {
    const http = client();
    let status = 200;
    for (let i = 0; i < 2000 && status !== 429; i += 1) status = (await http.get('/api/captions/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status;
    expect(status).toBe(429);
  });

  it('goes with its video when the video is deleted', async () => {
    const creator = await newCreator();
    suite.cleanUp(async () => void (await suite.admin.http.delete(`/api/admin/users/${creator.id}`, suite.admin.token)));
    const video = (await addVideo(creator, { provider: 'generic', url: 'https://cdn.example.com/gone.mp4' })).id;
    const track = (await upload(creator, video, { content: VTT, name: 'c.vtt' })).body.data;
    expect((await creator.http.delete(`/api/videos/${video}`, creator.token)).status).toBe(200);
    expect(await suite.db('branchify_caption_tracks').where({ id: track.id }).first()).toBeUndefined();
    expect((await client().get(track.url)).status).toBe(404);
  });
});

describe('adding tracks at the same time', () => {
  it('keeps one track per language and the per-video cap when uploads race', async () => {
    // Its own account and address: the upload budget is per account and per address.
    const creator = await newCreator();
    suite.cleanUp(async () => void (await suite.admin.http.delete(`/api/admin/users/${creator.id}`, suite.admin.token)));
    const video = (await addVideo(creator, { provider: 'generic', url: 'https://cdn.example.com/race.mp4' })).id;
    const same = await Promise.all(
      Array.from({ length: 4 }, () => upload(creator, video, { content: VTT, name: 'c.vtt' }, { language: 'en', label: 'English' })),
    );
    expect(same.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
    const many = await Promise.all(
      ['fr', 'de', 'es', 'it', 'nl', 'pt', 'sv', 'da', 'fi', 'no'].map((language) =>
        upload(creator, video, { content: VTT, name: 'c.vtt' }, { language, label: language }),
      ),
    );
    expect(many.filter((r) => r.status === 201)).toHaveLength(CAPTION_LIMITS.maxTracksPerVideo - 1);
    const rows = await suite.db('branchify_caption_tracks').where({ video_id: video }).count({ n: '*' });
    expect(Number(rows[0]!.n)).toBe(CAPTION_LIMITS.maxTracksPerVideo);
  });
});
