import { messageTemplates } from '@branchify/shared';
import request from 'supertest';
import { addVideo, branchElement, freePlan, subscribedUser } from './support/content';
import { baseUrl } from './support/http';
import { readPreviewTags } from './support/preview';
import { type Session } from './support/users';
import { useApiSuite } from './support/suite';

/**
 * A shared `/player/{reference}` link previews itself: description, canonical link, Open Graph and
 * Twitter card from the funnel and its first video's poster, absolute under PUBLIC_URL; search
 * engines stay out unless the creator lets them in.
 */

const PUBLIC_URL = (process.env.PUBLIC_URL ?? '').replace(/\/$/, '');
const HOSTILE = `"><script>alert('title')</script><meta name="robots" content="index">`;
/** A 2×2 PNG: the poster a creator's browser drew. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);

const suite = useApiSuite();

const page = (reference: string, etag?: string) => {
  const req = request(baseUrl()).get(`/player/${reference}`).set('Accept', 'text/html');
  return etag ? req.set('If-None-Match', etag) : req;
};

const setPoster = (session: Session, videoId: number) =>
  request(baseUrl())
    .put(`/api/videos/${videoId}/poster`)
    .set('X-Forwarded-For', session.http.ip)
    .set('Accept', 'application/json')
    .set('Authorization', `Bearer ${session.token}`)
    .attach('image', PNG, 'frame.png');

/** The editor's save: the whole document with these settings. */
const saveFunnel = async (
  session: Session,
  funnelId: number,
  body: { title: string; description: string; settings: Record<string, boolean>; videos: Array<{ id: number; editor_id: string; elements: unknown[] }> },
) => {
  const res = await session.http.put(`/api/funnels/${funnelId}`, body, session.token);
  expect(res.status).toBe(200);
  return res.body.data as { settings: Record<string, boolean> };
};

/** A subscribed creator's funnel of two generic videos; 'second' is reached from 'intro', so 'intro' plays first. */
const twoVideoFunnel = async (title: string, description: string) => {
  const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
  const second = await addVideo(owner, { provider: 'generic', url: 'https://media.example.test/second.webm', title: 'Second clip' });
  const intro = await addVideo(owner, { provider: 'generic', url: 'https://media.example.test/intro.webm', title: 'Intro clip' });
  const created = await owner.http.post('/api/funnels', { title, description, settings: { enable_resume_play: false } }, owner.token);
  expect(created.status).toBe(201);
  const funnel = created.body.data as { id: number; identifier: string; settings: Record<string, boolean> };
  const doc = {
    title,
    description,
    settings: { enable_resume_play: false },
    // Listed second first: the preview follows the video viewers start with, not the list order.
    videos: [
      { id: second.id, editor_id: 'second', elements: [] },
      { id: intro.id, editor_id: 'intro', elements: [branchElement('el-1', 'intro', 'second')] },
    ],
  };
  await saveFunnel(owner, funnel.id, doc);
  return { owner, funnel, intro, second, doc };
};

describe('GET /player/{reference}: link preview', () => {
  it("carries the funnel's title, description and first poster as Open Graph and Twitter card tags, escaped and absolute", async () => {
    const { owner, funnel, intro, second } = await twoVideoFunnel(HOSTILE, 'Pick a path & see "what" <happens> next.');
    expect(funnel.settings).toEqual({ enable_resume_play: false, allow_indexing: false });
    // Only the video viewers start with gives the picture.
    expect((await setPoster(owner, second.id)).status).toBe(200);
    const stored = await setPoster(owner, intro.id);
    expect(stored.status).toBe(200);
    const poster = stored.body.data.thumbnail as string;
    expect(poster).toMatch(/^\/uploads\/[\w-]+\.png$/);

    const res = await page(funnel.identifier);
    expect(res.status).toBe(200);
    // The hostile title stays inside its attributes and text: no element of its own.
    expect(res.text).not.toContain(`"><script>alert('title')`);
    const tags = readPreviewTags(res.text);
    expect(tags.scripts).toBe(2); // the player bundle and the inlined payload
    const appName = tags.meta['application-name']!;
    const url = `${PUBLIC_URL}/player/${funnel.identifier}`;
    expect(tags.canonical).toBe(url);
    expect(tags.meta).toEqual({
      viewport: expect.any(String),
      'application-name': appName,
      description: 'Pick a path & see "what" <happens> next.',
      robots: 'noindex',
      'og:type': 'video.other',
      'og:site_name': appName,
      'og:title': HOSTILE,
      'og:description': 'Pick a path & see "what" <happens> next.',
      'og:url': url,
      'og:image': `${PUBLIC_URL}${poster}`,
      'og:image:width': '2',
      'og:image:height': '2',
      'og:image:alt': messageTemplates.funnelPreviewImageAlt('Intro clip'),
      'twitter:card': 'summary_large_image',
      'twitter:title': HOSTILE,
      'twitter:description': 'Pick a path & see "what" <happens> next.',
      'twitter:image': `${PUBLIC_URL}${poster}`,
      'twitter:image:alt': messageTemplates.funnelPreviewImageAlt('Intro clip'),
    });
    expect(tags.meta['og:image']).toMatch(/^https?:\/\//);
    expect(tags.title).toBe(`${HOSTILE} · ${appName}`);
    expect(res.headers['x-robots-tag']).toBe('noindex');
  });

  it('without a description or a poster: a sentence naming the app and a summary card with no image', async () => {
    const { funnel } = await twoVideoFunnel('Plain funnel', '');
    const res = await page(funnel.identifier);
    const tags = readPreviewTags(res.text);
    const fallback = messageTemplates.funnelPreviewDescription(tags.meta['application-name']!);
    expect(tags.meta).toMatchObject({ description: fallback, 'og:description': fallback, 'twitter:description': fallback, 'twitter:card': 'summary' });
    for (const key of ['og:image', 'og:image:width', 'og:image:alt', 'twitter:image']) expect(tags.meta).not.toHaveProperty(key);
  });

  it("uses a provider's thumbnail URL as it is stored, and cuts a long description at a word", async () => {
    const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const video = await addVideo(owner, { thumbnail: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg', title: 'On YouTube' });
    const long = `${'word '.repeat(100)}end`;
    const created = await owner.http.post('/api/funnels', { title: 'Tube', description: long }, owner.token);
    await saveFunnel(owner, created.body.data.id, {
      title: 'Tube',
      description: long,
      settings: {},
      videos: [{ id: video.id, editor_id: 'only', elements: [] }],
    });
    const tags = readPreviewTags((await page(created.body.data.identifier)).text);
    expect(tags.meta['og:image']).toBe('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg');
    // No stored size for a picture the app does not hold.
    expect(tags.meta).not.toHaveProperty('og:image:width');
    expect(tags.meta['twitter:card']).toBe('summary_large_image');
    expect(tags.meta.description).toMatch(/^word (word )+word…$/);
    expect(tags.meta.description!.length).toBeLessThanOrEqual(200);
  });

  it('lets search engines in only once the creator saves allow_indexing; another tenant cannot; the ETag follows each change', async () => {
    const { owner, funnel, intro, doc } = await twoVideoFunnel('Indexable', 'Before');
    const first = await page(funnel.identifier);
    expect(readPreviewTags(first.text).meta.robots).toBe('noindex');
    expect(first.headers['x-robots-tag']).toBe('noindex');
    let etag = first.headers.etag as string;
    expect((await page(funnel.identifier, etag)).status).toBe(304);

    /** The page changed: the old ETag no longer matches, and the new one does. */
    const expectNewEtag = async () => {
      const res = await page(funnel.identifier, etag);
      expect(res.status).toBe(200);
      expect(res.headers.etag).not.toBe(etag);
      etag = res.headers.etag as string;
      expect((await page(funnel.identifier, etag)).status).toBe(304);
      return res;
    };

    // Another tenant cannot turn it on (their PUT is a 404), and the page stays as it was.
    const stranger = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const theirs = await stranger.http.put(`/api/funnels/${funnel.id}`, { ...doc, settings: { allow_indexing: true } }, stranger.token);
    expect(theirs.status).toBe(404);
    const untouched = await stranger.http.put(`/api/funnels/${funnel.id}`, { title: 'Mine now', settings: { allow_indexing: true } }, stranger.token);
    expect(untouched.status).toBe(404);
    expect((await page(funnel.identifier, etag)).status).toBe(304);

    // The owner turns it on through the same save the editor makes.
    const saved = await saveFunnel(owner, funnel.id, { ...doc, settings: { enable_resume_play: false, allow_indexing: true } });
    expect(saved.settings).toEqual({ enable_resume_play: false, allow_indexing: true });
    expect((await owner.http.get(`/api/funnels/${funnel.id}`, owner.token)).body.data.settings.allow_indexing).toBe(true);
    const on = await expectNewEtag();
    expect(readPreviewTags(on.text).meta.robots).toBe('index, follow');
    expect(on.headers).not.toHaveProperty('x-robots-tag');
    // The public payload does not carry the setting.
    expect((await request(baseUrl()).get(`/api/funnels/${funnel.identifier}/player`)).body.data.settings).toEqual({ enable_resume_play: false });

    // A value that is not true or false is refused by the same schema.
    const bad = await owner.http.put(`/api/funnels/${funnel.id}`, { ...doc, settings: { allow_indexing: 'yes' } }, owner.token);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty(['settings.allow_indexing']);

    // Title, description and poster each change the page's ETag.
    await saveFunnel(owner, funnel.id, { ...doc, title: 'Renamed', settings: { allow_indexing: true } });
    expect(readPreviewTags((await expectNewEtag()).text).meta['og:title']).toBe('Renamed');
    await saveFunnel(owner, funnel.id, { ...doc, title: 'Renamed', description: 'After', settings: { allow_indexing: true } });
    expect(readPreviewTags((await expectNewEtag()).text).meta['og:description']).toBe('After');
    expect((await setPoster(owner, intro.id)).status).toBe(200);
    expect(readPreviewTags((await expectNewEtag()).text).meta['twitter:card']).toBe('summary_large_image');

    // Off again: noindex and the header are back.
    await saveFunnel(owner, funnel.id, { ...doc, settings: { allow_indexing: false } });
    const off = await expectNewEtag();
    expect(readPreviewTags(off.text).meta.robots).toBe('noindex');
    expect(off.headers['x-robots-tag']).toBe('noindex');
  });
});
