import fs from 'node:fs';
import path from 'node:path';
import { addVideo, branchElement, createFunnel, freePlan, subscribedUser, textElement } from './support/content';
import { apiToken, cmsOperatorJwt } from './support/cms';
import request from 'supertest';
import { MESSAGES } from '@branchify/shared';
import { baseUrl, client } from './support/http';
import { verifiedUser } from './support/users';
import { isPostgres } from './support/db';
import type { Session } from './support/users';
import { useApiSuite } from './support/suite';

/**
 * Export and import: a funnel leaves one account as a file and becomes a new funnel in another,
 * with its videos matched by source or added, its uploaded images stored again, under the
 * importer's plan; a file that cannot be imported is a 422 naming where, and nothing is made.
 */
const suite = useApiSuite();
const onPostgres = isPostgres() ? describe : describe.skip;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);

/** What the tests change in an exported element. */
type ExportedElement = { type: string; data: { branches: Array<Record<string, unknown>> } };

type ExportFile = {
  format: string;
  version: number;
  funnel: { title: string; videos: Array<{ editor_id: string; video: string; elements: ExportedElement[] }> };
  library: Array<{ ref: string; provider: string; url: string; title: string }>;
  images: Array<{ path: string; type: string; data: string }>;
};

const exportOf = async (owner: Session, funnelId: number): Promise<ExportFile> => {
  const res = await owner.http.get(`/api/funnels/${funnelId}/export`, owner.token);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as ExportFile;
};

const importFile = (user: Session, file: unknown, dryRun = false) =>
  user.http.post(`/api/funnels/import${dryRun ? '?dry_run=true' : ''}`, file as object, user.token);

/** What an import could have made for a user: funnels, library videos, stored images. */
const holdings = async (userId: number) => ({
  funnels: (await suite.db('branchify_funnels').where({ owner_id: userId })).length,
  videos: (await suite.db('branchify_videos').where({ owner_id: userId })).length,
  images: (await suite.db('branchify_creator_images').where({ owner_id: userId })).length,
});

/** An owner's three-video funnel: YouTube intro, Vimeo and direct-file branches, a text, an uploaded button image. */
const richFunnel = async (owner: Session) => {
  const intro = await addVideo(owner, { title: 'Intro' });
  const offer = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Offer' });
  const clip = await addVideo(owner, { provider: 'generic', url: 'https://media.example.com/clips/thanks.mp4', title: 'Thanks', duration: 9 });
  const upload = await owner.http.upload('/api/uploads/images', owner.token).attach('image', PNG, 'button.png');
  expect(upload.status).toBe(201);
  const image = upload.body.data.url as string;
  const funnel = await createFunnel(owner, { title: 'Launch funnel' });
  const choice = branchElement('choice', 'intro', 'offer');
  choice.data.branches.push({
    ...choice.data.branches[0]!,
    id: 'choice-b2',
    name: 'Thanks',
    video: 'thanks',
    type: 'image',
    image: { source: image },
  } as never);
  const doc = {
    title: 'Launch funnel',
    description: 'Intro, offer, thanks',
    settings: { enable_resume_play: true, allow_indexing: false },
    videos: [
      { id: intro.id, editor_id: 'intro', elements: [choice, textElement('hello', 'intro', 'Hi there')] },
      { id: offer.id, editor_id: 'offer', elements: [branchElement('to-thanks', 'offer', 'thanks')] },
      { id: clip.id, editor_id: 'thanks', elements: [] },
    ],
  };
  const saved = await owner.http.put(`/api/funnels/${funnel.id}`, doc, owner.token);
  expect(saved.status).toBe(200);
  return { funnel, image, saved: saved.body.data as { videos: Array<{ editor_id: string; elements: unknown[] }> } };
};

let owner: Session;
let rich: Awaited<ReturnType<typeof richFunnel>>;
let file: ExportFile;

beforeAll(async () => {
  owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
  rich = await richFunnel(owner);
  file = await exportOf(owner, rich.funnel.id);
});

describe('GET /api/funnels/{id}/export', () => {
  it('downloads one versioned file: the funnel, its library entries by reference, its uploaded images embedded', async () => {
    const res = await owner.http.get(`/api/funnels/${rich.funnel.id}/export`, owner.token);
    expect(res.headers['content-disposition']).toBe('attachment; filename="launch-funnel.funnel.json"');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(file).toMatchObject({ format: 'branchify.funnel', version: 2, funnel: { title: 'Launch funnel', description: 'Intro, offer, thanks' } });
    expect(file.library).toEqual([
      { ref: 'video-1', provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Intro', duration: null },
      { ref: 'video-2', provider: 'vimeo', url: '76979871', title: 'Offer', duration: null },
      { ref: 'video-3', provider: 'generic', url: 'https://media.example.com/clips/thanks.mp4', title: 'Thanks', duration: 9 },
    ]);
    expect(file.funnel.videos.map((v) => [v.editor_id, v.video])).toEqual([
      ['intro', 'video-1'],
      ['offer', 'video-2'],
      ['thanks', 'video-3'],
    ]);
    expect(file.funnel.videos[0]).not.toHaveProperty('id');
    expect(file.images).toEqual([{ path: rich.image, type: 'image/png', data: PNG.toString('base64') }]);
    // Nothing of the owner's account rides along: no ids, owner, reference or analytics.
    expect(res.text).not.toMatch(/"(owner_id|identifier|documentId)"/);
  });

  it("is the owner's only: another tenant's funnel is a 404, anonymous a 401", async () => {
    const other = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    expect((await other.http.get(`/api/funnels/${rich.funnel.id}/export`, other.token)).status).toBe(404);
    expect((await client().get(`/api/funnels/${rich.funnel.id}/export`)).status).toBe(401);
  });
});

describe('POST /api/funnels/import', () => {
  it('shows what a dry run would make, and makes nothing', async () => {
    const importer = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const res = await importFile(importer, file, true);
    expect(res.status).toBe(200);
    expect(res.body.data.plan).toEqual({
      title: 'Launch funnel',
      videos: 3,
      elements: { branches: 2, texts: 1 },
      matched: [],
      added: [
        { ref: 'video-1', title: 'Intro', provider: 'youtube' },
        { ref: 'video-2', title: 'Offer', provider: 'vimeo' },
        { ref: 'video-3', title: 'Thanks', provider: 'generic' },
      ],
      images: 1,
      captions: { added: [], skipped: [] },
    });
    expect(await holdings(importer.id)).toEqual({ funnels: 0, videos: 0, images: 0 });
  });

  it('makes the funnel in another account: videos added, the image stored as theirs, the document the same', async () => {
    const importer = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const res = await importFile(importer, file);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Funnel imported successfully');
    const made = res.body.data as {
      id: number;
      identifier: string;
      title: string;
      videos: Array<{ id: number; editor_id: string; elements: unknown[]; video: { title: string } }>;
    };
    expect(made.title).toBe('Launch funnel');
    expect(made.identifier).not.toBe((await suite.db('branchify_funnels').where({ id: rich.funnel.id }).first()).identifier);

    const library = await suite.db('branchify_videos').where({ owner_id: importer.id }).orderBy('id');
    expect(library.map((v) => [v.provider, v.title])).toEqual([
      ['youtube', 'Intro'],
      ['vimeo', 'Offer'],
      ['generic', 'Thanks'],
    ]);
    expect(made.videos.map((v) => v.id)).toEqual(library.map((v) => v.id));
    const images = await suite.db('branchify_creator_images').where({ owner_id: importer.id });
    expect(images).toHaveLength(1);
    expect(images[0].url).not.toBe(rich.image);

    // The same elements, but the button shows the importer's copy of the image.
    const expected = JSON.parse(JSON.stringify(rich.saved.videos.map((v) => v.elements)).replaceAll(rich.image, images[0].url));
    expect(made.videos.map((v) => v.elements)).toEqual(expected);

    // It plays: the public payload answers with the three videos.
    const player = await client().get(`/api/funnels/${made.identifier}/player`);
    expect(player.status).toBe(200);
    expect(await suite.db('branchify_funnel_videos').where({ funnel_id: made.id })).toHaveLength(3);
  });

  it('uses the videos the library already has (same source) instead of adding them again', async () => {
    const importer = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const mine = await addVideo(importer, { title: 'My copy of the intro' });
    const dry = await importFile(importer, file, true);
    expect(dry.body.data.plan.matched).toEqual([{ ref: 'video-1', title: 'My copy of the intro', video_id: mine.id }]);
    expect(dry.body.data.plan.added.map((a: { ref: string }) => a.ref)).toEqual(['video-2', 'video-3']);
    const first = await importFile(importer, file);
    expect(first.body.data.videos[0].id).toBe(mine.id);
    const second = await importFile(importer, file);
    expect(second.status).toBe(201);
    expect(second.body.data.plan.added).toEqual([]);
    // The image too: the second import shows the one the first stored (same bytes).
    expect(await holdings(importer.id)).toEqual({ funnels: 2, videos: 3, images: 1 });
    expect(second.body.data.videos[0].elements.find((e: { type: string }) => e.type === 'branch')).toEqual(
      first.body.data.videos[0].elements.find((e: { type: string }) => e.type === 'branch'),
    );
  });

  it('takes the file as an upload (the dashboard) as well as a JSON body', async () => {
    const importer = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const upload = (content: Buffer | string) =>
      importer.http.upload('/api/funnels/import', importer.token).attach('file', Buffer.from(content), 'launch.funnel.json');
    const res = await upload(JSON.stringify(file));
    expect(res.status).toBe(201);
    const notJson = await upload('{ "format": "branchify.funnel", ');
    expect(notJson.status).toBe(422);
    expect(notJson.body.errors).toEqual({ file: ['This file is not valid JSON. Choose a .json file made with Export.'] });
    const none = await importer.http.post('/api/funnels/import', {}, importer.token);
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ file: ['Choose the funnel file (.json) to import.'] });
  });

  it("applies the importer's plan with the spec's messages, making nothing when refused", async () => {
    const full = await subscribedUser(suite.admin, (await freePlan(suite.admin, { max_funnel: 1 })).id);
    await createFunnel(full);
    const funnels = await importFile(full, file);
    expect(funnels.status).toBe(403);
    expect(funnels.body.message).toBe('Please upgrade your plan to create more funnel.');
    expect(await holdings(full.id)).toEqual({ funnels: 1, videos: 0, images: 0 });

    const youtubeOnly = await subscribedUser(suite.admin, (await freePlan(suite.admin, { video_sources: ['youtube'] })).id);
    const sources = await importFile(youtubeOnly, file, true);
    expect(sources.status).toBe(403);
    expect(sources.body.message).toMatch(/upgrade/i);
    // A Vimeo video already in the library needs no new source: only what would be added is judged.
    const branches = await subscribedUser(suite.admin, (await freePlan(suite.admin, { max_branch_per_funnel: 1 })).id);
    const elements = await importFile(branches, file);
    expect(elements.status).toBe(403);
    expect(elements.body.message).toMatch(/maximum number of branches/);
    for (const user of [youtubeOnly, branches]) expect(await holdings(user.id)).toEqual({ funnels: 0, videos: 0, images: 0 });
  });

  describe('files it cannot import: a 422 naming the place, and nothing made', () => {
    let importer: Session;
    beforeAll(async () => {
      importer = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    });
    const variant = (change: (f: ExportFile) => void): ExportFile => {
      const copy = structuredClone(file);
      change(copy);
      return copy;
    };

    it.each<[string, () => unknown, string, RegExp]>([
      ['not an export', () => ({ hello: 'world' }), 'format', /not a funnel export/],
      ['another format', () => variant((f) => (f.format = 'other.thing')), 'format', /not a funnel export/],
      ['a newer version', () => variant((f) => (f.version = 99)), 'version', /newer version of the app \(format 99; this app reads up to format 2\)/],
      ['a video naming no library entry', () => variant((f) => (f.funnel.videos[1]!.video = 'video-9')), 'funnel.videos.1.video', /library/],
      [
        'a branch to a video not in the funnel',
        () => variant((f) => (f.funnel.videos[0]!.elements[0]!.data.branches[0]!.video = 'nowhere')),
        'funnel.videos.0.elements.0.data.branches.0.video',
        /must be a video of this funnel/,
      ],
      ['a library entry that is no video', () => variant((f) => (f.library[0]!.url = 'https://example.com/not-youtube')), 'library.0.url', /./],
      ['an image shown but not embedded', () => variant((f) => (f.images = [])), 'images', /not embedded in the file/],
      [
        'an embedded image that is no image',
        () => variant((f) => (f.images[0]!.data = Buffer.from('not a png at all').toString('base64'))),
        'images.0.data',
        /./,
      ],
      [
        'an unknown element type',
        () => variant((f) => (f.funnel.videos[0]!.elements[0]!.type = 'script')),
        'funnel.videos.0.elements.0.type',
        /'text' or 'branch'/,
      ],
      [
        'a javascript: link',
        () => variant((f) => Object.assign(f.funnel.videos[0]!.elements[0]!.data.branches[0]!, { onclick: 'url', externalLink: 'javascript:alert(1)' })),
        'funnel.videos.0.elements.0.data.branches.0.externalLink',
        /./,
      ],
    ])('%s', async (_name, make, path, message) => {
      const before = await holdings(importer.id);
      const res = await importFile(importer, make());
      expect(res.status).toBe(422);
      expect(res.body.success).toBe(false);
      expect(Object.keys(res.body.errors)).toContain(path);
      expect(res.body.message).toContain(`This file cannot be imported: ${path}: `);
      expect(res.body.errors[path].join(' ')).toMatch(message);
      expect(await holdings(importer.id)).toEqual(before);
    });
  });
});

const UPLOADS_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');
const filesOnDisk = () => (fs.existsSync(UPLOADS_DIR) ? fs.readdirSync(UPLOADS_DIR).length : 0);

describe('who may send a body comes first', () => {
  it('an import from an account whose plan allows no funnel is refused before its file is read', async () => {
    const planless = await verifiedUser();
    const notJson = Buffer.from('{ this is not JSON');
    const asFile = await planless.http.upload('/api/funnels/import', planless.token).attach('file', notJson, 'broken.json');
    const asBody = await planless.http.upload('/api/funnels/import', planless.token).set('Content-Type', 'application/json').send('{ nor this');
    const full = await subscribedUser(suite.admin, (await freePlan(suite.admin, { max_funnel: 0 })).id);
    const atLimit = await full.http.upload('/api/funnels/import', full.token).attach('file', notJson, 'broken.json');
    expect([asFile.status, asBody.status, atLimit.status]).toEqual([403, 403, 403]);
    expect(asFile.body.message).toBe(MESSAGES.noSubscription);
  });

  it("a save to another tenant's funnel is a 404 before its body is read, and a malformed body of one's own a 400", async () => {
    const other = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const put = (user: Session, id: number) =>
      request(baseUrl())
        .put(`/api/funnels/${id}`)
        .set('Authorization', `Bearer ${user.token}`)
        .set('X-Forwarded-For', user.http.ip)
        .set('Content-Type', 'application/json')
        .send('{ not JSON');
    const theirs = await put(other, rich.funnel.id);
    const mine = await put(owner, rich.funnel.id);
    const proto = await request(baseUrl())
      .put(`/api/funnels/${rich.funnel.id}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .set('X-Forwarded-For', owner.http.ip)
      .set('Content-Type', 'application/json')
      .send('{"title":"x","__proto__":{"admin":true}}');
    expect([theirs.status, mine.status, mine.body.message, proto.status, proto.body.message]).toEqual([
      404,
      400,
      MESSAGES.malformedBody,
      400,
      MESSAGES.forbiddenBodyKey,
    ]);
  });
});

describe('per-account budgets (the defaults: 120 saves and 30 uploads, imports or exports a window)', () => {
  it('a save past the budget is a 429 with Retry-After before its body is read; exports likewise', async () => {
    const busy = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const funnel = await createFunnel(busy);
    const saves = [];
    for (let i = 0; i < 120; i += 1) saves.push((await busy.http.put(`/api/funnels/${funnel.id}`, { title: `Save ${i}` }, busy.token)).status);
    expect(new Set(saves)).toEqual(new Set([200]));
    const past = await request(baseUrl())
      .put(`/api/funnels/${funnel.id}`)
      .set('Authorization', `Bearer ${busy.token}`)
      .set('X-Forwarded-For', busy.http.ip)
      .set('Content-Type', 'application/json')
      .send('{ not JSON');
    expect([past.status, past.body.message, Number(past.headers['retry-after']) > 0]).toEqual([429, MESSAGES.tooManyRequests, true]);

    const exports = [];
    for (let i = 0; i < 31; i += 1) exports.push((await busy.http.get(`/api/funnels/${funnel.id}/export`, busy.token)).status);
    expect(exports.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(exports[30]).toBe(429);
  });
});

describe('what an import stores', () => {
  /** A second image embedded in the file that no element shows. */
  const withUnusedImage = (): ExportFile => {
    const copy = structuredClone(file);
    copy.images.push({ path: '/uploads/never-shown.png', type: 'image/png', data: PNG.toString('base64') });
    return copy;
  };

  it('stores only the images the funnel shows', async () => {
    const importer = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const res = await importFile(importer, withUnusedImage());
    expect(res.status).toBe(201);
    expect(res.body.data.plan.images).toBe(1);
    expect(await holdings(importer.id)).toMatchObject({ funnels: 1, images: 1 });
  });

  it('stores nothing, and leaves no file, on a dry run or an import refused before or after its images', async () => {
    const importer = await subscribedUser(suite.admin, (await freePlan(suite.admin, { max_branch_per_funnel: 1 })).id);
    const files = filesOnDisk();
    // A dry run; refused by the plan's elements (after reading); refused by a bad second image (after the first was stored).
    const badSecond = structuredClone(file);
    const choice = badSecond.funnel.videos[0]!.elements[0]!;
    choice.data.branches.push({ ...choice.data.branches[1]!, id: 'choice-b3', image: { source: '/uploads/broken.png' } });
    badSecond.images.push({ path: '/uploads/broken.png', type: 'image/png', data: Buffer.from('not a png at all').toString('base64') });
    const roomy = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const answers = [
      (await importFile(roomy, withUnusedImage(), true)).status,
      (await importFile(importer, withUnusedImage())).status,
      (await importFile(roomy, badSecond)).status,
    ];
    expect(answers).toEqual([200, 403, 422]);
    for (const user of [importer, roomy]) expect(await holdings(user.id)).toEqual({ funnels: 0, videos: 0, images: 0 });
    expect(filesOnDisk()).toBe(files);
  });

  it('reuses an image of the same bytes an earlier import stored, and counts new images against the upload budget', async () => {
    const importer = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    expect((await importFile(importer, file)).status).toBe(201);
    // The budget is spent by uploads: the same bytes import again (nothing new to store), a new image does not.
    for (let i = 0; i < 30; i += 1) await importer.http.upload('/api/uploads/images', importer.token).attach('image', PNG, `spend-${i}.png`);
    expect((await importFile(importer, file)).status).toBe(201);
    const other = structuredClone(file);
    other.images[0]!.data = Buffer.concat([PNG, Buffer.from('different bytes after the end')]).toString('base64');
    const refused = await importFile(importer, other);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await holdings(importer.id)).toMatchObject({ funnels: 2 });
  });

  it('collects images no funnel shows once they are a day old', async () => {
    const creator = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const upload = async (name: string) => (await creator.http.upload('/api/uploads/images', creator.token).attach('image', PNG, name)).body.data.url as string;
    const [unused, shown, fresh] = [await upload('unused.png'), await upload('shown.png'), await upload('fresh.png')];
    const video = await addVideo(creator);
    const funnel = await createFunnel(creator);
    const element = branchElement('pic', 'intro', null);
    Object.assign(element.data.branches[0]!, { type: 'image', image: { source: shown } });
    expect(
      (
        await creator.http.put(
          `/api/funnels/${funnel.id}`,
          { title: 'Pictures', videos: [{ id: video.id, editor_id: 'intro', elements: [element] }] },
          creator.token,
        )
      ).status,
    ).toBe(200);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    await suite.db('branchify_creator_images').whereIn('url', [unused, shown]).update({ created_at: twoDaysAgo, updated_at: twoDaysAgo });

    const swept = await suite.admin.http.post('/api/admin/operations/collect-images', {}, suite.admin.token);
    expect(swept.status).toBe(200);
    expect(swept.body.data.deleted).toContain(unused);
    expect(swept.body.data.deleted).not.toContain(shown);
    const left = (await suite.db('branchify_creator_images').where({ owner_id: creator.id })).map((r: { url: string }) => r.url).sort();
    expect(left).toEqual([shown, fresh].sort());
    expect(fs.existsSync(path.join(UPLOADS_DIR, path.basename(unused)))).toBe(false);
    expect(fs.existsSync(path.join(UPLOADS_DIR, path.basename(shown)))).toBe(true);
    const creatorAsked = await creator.http.post('/api/admin/operations/collect-images', {}, creator.token);
    expect(creatorAsked.status).toBe(403);
  });
});

describe('the integrator API', () => {
  let fullToken: string;
  let readToken: string;
  beforeAll(async () => {
    const jwt = await cmsOperatorJwt('Ines');
    [fullToken, readToken] = await Promise.all([apiToken(jwt, 'full-access'), apiToken(jwt, 'read-only')]);
  });

  it('exports with a read-only token and imports into a user with a full-access one', async () => {
    const { document_id: documentId } = await suite.db('branchify_funnels').where({ id: rich.funnel.id }).first();
    const exported = await client().get(`/api/branchify/funnels/${documentId}/export`, readToken);
    expect(exported.status).toBe(200);
    expect(exported.body.data).toMatchObject({ format: 'branchify.funnel', version: 2, library: file.library, images: file.images });

    const importer = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const refused = await client().post('/api/branchify/funnels/import', { data: { user_id: importer.id, file: exported.body.data } }, readToken);
    expect(refused.status).toBe(403);
    const dry = await client().post('/api/branchify/funnels/import?dry_run=true', { data: { user_id: importer.id, file: exported.body.data } }, fullToken);
    expect(dry.status).toBe(200);
    expect(dry.body.meta.plan.added).toHaveLength(3);
    const made = await client().post('/api/branchify/funnels/import', { data: { user_id: importer.id, file: exported.body.data } }, fullToken);
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ title: 'Launch funnel', owner_id: importer.id });
    expect(await holdings(importer.id)).toEqual({ funnels: 1, videos: 3, images: 1 });

    const bad = await client().post('/api/branchify/funnels/import', { data: { user_id: importer.id, file: { format: 'nope' } } }, fullToken);
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toMatch(/not a funnel export/);
    expect((await client().get('/api/branchify/funnels/nope/export', readToken)).status).toBe(404);
  });
});

onPostgres('parallel imports (PostgreSQL)', () => {
  it('five imports at once for a one-funnel plan make one funnel, and the refused ones keep none of their images', async () => {
    const importer = await subscribedUser(suite.admin, (await freePlan(suite.admin, { max_funnel: 1 })).id);
    const results = await Promise.all(Array.from({ length: 5 }, () => importFile(importer, file).then((r) => r)));
    expect(results.map((r) => `${r.status} ${r.body.message}`).sort()).toEqual([
      '201 Funnel imported successfully',
      ...Array(4).fill('403 Please upgrade your plan to create more funnel.'),
    ]);
    const after = await holdings(importer.id);
    expect(after.funnels).toBe(1);
    expect(after.images).toBe(1);
  });
});
