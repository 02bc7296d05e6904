// @serial: changes branding for the whole install (tests/harness/groups.js)
import { client } from './support/http';
import { branchElement, publishedFunnel as published, twoVideoDocument, uuid } from './support/content';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

const publishedFunnel = () => published(suite.admin);

describe('GET /api/funnels/{reference}/player', () => {
  it('serves the funnel with its videos, embed URLs, elements and branding, and nothing private', async () => {
    const { owner, funnel, a } = await publishedFunnel();
    const res = await client().get(`/api/funnels/${funnel.identifier}/player`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(data).toMatchObject({ identifier: funnel.identifier, title: 'Two videos', settings: { enable_resume_play: true }, root_editor_id: 'intro' });
    expect(data.videos.map((v: { editor_id: string; provider: string; embed_url: string }) => [v.editor_id, v.provider, v.embed_url])).toEqual([
      ['intro', 'youtube', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
      ['second', 'vimeo', 'https://player.vimeo.com/video/76979871'],
    ]);
    expect(data.videos[0].elements).toHaveLength(2);
    expect(data.app.name).toBeTruthy();
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(owner.email);
    expect(text).not.toMatch(new RegExp(`"id":${funnel.id}\\b`));
    expect(text).not.toMatch(new RegExp(`"id":${a.id}\\b`));
    expect(text).not.toContain('owner');
  });

  it('carries an ETag and Cache-Control, and answers 304 to a matching If-None-Match', async () => {
    const { funnel } = await publishedFunnel();
    const res = await client().get(`/api/funnels/${funnel.identifier}/player`);
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect(res.headers['cache-control']).toMatch(/public/);
    const again = await client().get(`/api/funnels/${funnel.identifier}/player`).set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
  });

  it('shows a change at once after the owner saves', async () => {
    const { owner, funnel, a, b } = await publishedFunnel();
    const before = await client().get(`/api/funnels/${funnel.identifier}/player`);
    await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id, 'Retitled'), owner.token);
    const after = await client().get(`/api/funnels/${funnel.identifier}/player`);
    expect(after.body.data.title).toBe('Retitled');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('is a 404 with a clear message for an unknown reference and for a suspended owner', async () => {
    const unknown = await client().get('/api/funnels/NoSuchFunnelReference1/player');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'This funnel is not available. It may have been removed, or its owner’s account is inactive.' });

    const { owner, funnel } = await publishedFunnel();
    const suspended = await suite.admin.http.put(`/api/admin/users/${owner.id}`, { status: 'suspended', status_note: 'Chargeback' }, suite.admin.token);
    expect(suspended.status).toBe(200);
    expect((await client().get(`/api/funnels/${funnel.identifier}/player`)).status).toBe(404);
    await suite.admin.http.put(`/api/admin/users/${owner.id}`, { status: 'active' }, suite.admin.token);
    expect((await client().get(`/api/funnels/${funnel.identifier}/player`)).status).toBe(200);
  });

  it('follows the owner subscription: a grace period plays, an ended one does not', async () => {
    const { owner, funnel } = await publishedFunnel();
    const sub = (await suite.admin.http.get(`/api/admin/subscriptions/users/${owner.id}`, suite.admin.token)).body.data;
    await suite
      .db('branchify_subscriptions')
      .where({ id: sub.id })
      .update({ status: 'canceled', canceled_at: new Date(Date.now() + 3 * 86_400_000) });
    // Changed behind the API's back: allowed to show after the cache TTL, so ask with a fresh suspend/reactivate to drop it.
    await suite.admin.http.put(`/api/admin/users/${owner.id}`, { status: 'active' }, suite.admin.token);
    expect((await client().get(`/api/funnels/${funnel.identifier}/player`)).status).toBe(200);
    await suite
      .db('branchify_subscriptions')
      .where({ id: sub.id })
      .update({ canceled_at: new Date(Date.now() - 86_400_000) });
    await suite.admin.http.put(`/api/admin/users/${owner.id}`, { status: 'active' }, suite.admin.token);
    expect((await client().get(`/api/funnels/${funnel.identifier}/player`)).status).toBe(404);
  });
});

/** A view started as the player starts it: what its interactions carry. */
const startedView = async (reference: string): Promise<{ view_id: string; view_token: string }> => {
  const start = await client().post(`/api/funnels/${reference}/views`, { event_id: uuid() });
  expect(start.status).toBe(201);
  return { view_id: start.body.data.view_id, view_token: start.body.data.view_token };
};

describe('views and interactions', () => {
  it('starts a view, updates it, and gives a returning viewer the last position to resume', async () => {
    const { funnel } = await publishedFunnel();
    const viewer = client();
    const start = await viewer.post(`/api/funnels/${funnel.identifier}/views`, { event_id: uuid() });
    expect(start.status).toBe(201);
    const { view_id, view_token, viewer_token, last_view_state } = start.body.data;
    expect(viewer_token).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(view_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(last_view_state).toBeNull();
    const update = await viewer.put(`/api/funnels/${funnel.identifier}/views`, {
      view_id,
      view_token,
      viewer_token,
      editor_id: 'second',
      last_watch_time: 42.5,
      // Watched at most as long as the view has lasted (plus a little slack).
      watch_time: 20,
      duration: 60,
    });
    expect(update.status).toBe(200);
    const row = await suite.db('branchify_funnel_views').where({ event_id: view_id }).first();
    expect(row).toMatchObject({ editor_id: 'second' });
    expect(Number(row.last_watch_time)).toBe(42.5);

    const returning = await viewer.post(`/api/funnels/${funnel.identifier}/views`, { event_id: uuid(), viewer_token });
    expect(returning.body.data.last_view_state).toEqual({ last_watch_time: 42.5, editor_id: 'second' });
    // sendBeacon can only POST: a POST with view_id is an update.
    const beacon = await viewer.post(`/api/funnels/${funnel.identifier}/views`, {
      view_id: returning.body.data.view_id,
      view_token: returning.body.data.view_token,
      viewer_token,
      editor_id: 'intro',
      last_watch_time: 3,
    });
    expect(beacon.status).toBe(200);
  });

  it("refuses an update for someone else's view or another funnel's video", async () => {
    const { funnel } = await publishedFunnel();
    const start = await client().post(`/api/funnels/${funnel.identifier}/views`, { event_id: uuid() });
    const { view_id, view_token } = start.body.data;
    const stranger = await client().put(`/api/funnels/${funnel.identifier}/views`, {
      view_id,
      view_token,
      viewer_token: 'x'.repeat(32),
      editor_id: 'intro',
      last_watch_time: 1,
    });
    expect(stranger.status).toBe(404);
    const wrongVideo = await client().put(`/api/funnels/${funnel.identifier}/views`, {
      view_id,
      view_token,
      viewer_token: start.body.data.viewer_token,
      editor_id: 'not-here',
      last_watch_time: 1,
    });
    expect(wrongVideo.status).toBe(422);
    expect(wrongVideo.body.errors).toEqual({ editor_id: ['This video is not part of this funnel.'] });
  });

  it('stores an interaction once however often it is retried, and validates it', async () => {
    const { funnel } = await publishedFunnel();
    const view = await startedView(funnel.identifier);
    const event = { event_id: uuid(), ...view, video_id: 'intro', node_id: 'el-1-b1', connected_node: 'second', type: 'branch', player_time: 4.2 };
    for (let i = 0; i < 3; i += 1) expect((await client().post(`/api/funnels/${funnel.identifier}/interactions`, event)).status).toBe(202);
    expect(await suite.db('branchify_funnel_interactions').where({ event_id: event.event_id })).toHaveLength(1);

    const batch = await client().post(`/api/funnels/${funnel.identifier}/interactions`, {
      events: [
        { ...event, event_id: uuid() },
        { ...event, event_id: uuid(), video_id: 'elsewhere' },
      ],
    });
    expect(batch.status).toBe(422);
    expect(batch.body.errors).toEqual({ 'events.1.video_id': ['This video is not part of this funnel.'] });
    const bad = await client().post(`/api/funnels/${funnel.identifier}/interactions`, { ...event, event_id: 'not-a-uuid', player_time: -1 });
    expect(Object.keys(bad.body.errors).sort()).toEqual(['event_id', 'player_time']);
    expect((await client().post('/api/funnels/NoSuchFunnelReference1/interactions', { ...event, event_id: uuid() })).status).toBe(404);
  });

  it("keeps whether an inaction's countdown was paused (false when not said, none on a click) and refuses anything but true or false", async () => {
    const { funnel, owner, a, b } = await publishedFunnel();
    // The element's default (when the viewer does not choose) is its button to the second video.
    const doc = twoVideoDocument(a.id, b.id);
    doc.videos[0]!.elements[0] = branchElement('el-1', 'intro', 'second', { settings: { pauseVideo: { enabled: true, duration: 12 }, inaction: 'el-1-b1' } });
    expect((await owner.http.put(`/api/funnels/${funnel.id}`, doc, owner.token)).status).toBe(200);
    const base = { ...(await startedView(funnel.identifier)), video_id: 'intro', node_id: 'el-1-b1', connected_node: 'second', player_time: 14 };
    const paused = { ...base, event_id: uuid(), type: 'inaction', countdown_paused: true };
    const untouched = { ...base, event_id: uuid(), type: 'inaction' };
    const click = { ...base, event_id: uuid(), type: 'branch', countdown_paused: true };
    expect((await client().post(`/api/funnels/${funnel.identifier}/interactions`, { events: [paused, untouched, click] })).status).toBe(202);
    const rows = await suite
      .db('branchify_funnel_interactions')
      .whereIn('event_id', [paused.event_id, untouched.event_id, click.event_id])
      .select('event_id', 'countdown_paused');
    const byEvent = Object.fromEntries(
      rows.map((r: { event_id: string; countdown_paused: unknown }) => [r.event_id, r.countdown_paused === null ? null : Boolean(r.countdown_paused)]),
    );
    expect(byEvent).toEqual({ [paused.event_id]: true, [untouched.event_id]: false, [click.event_id]: null });
    const bad = await client().post(`/api/funnels/${funnel.identifier}/interactions`, { ...paused, event_id: uuid(), countdown_paused: 'yes' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ countdown_paused: ['countdown_paused must be true or false.'] });
  });

  it('rate-limits a flood from one address', async () => {
    const { funnel } = await publishedFunnel();
    const flooder = client();
    let limited = 0;
    for (let i = 0; i < 650 && !limited; i += 25) {
      const results = await Promise.all(
        Array.from({ length: 25 }, () => flooder.post(`/api/funnels/${funnel.identifier}/interactions`, { event_id: uuid(), video_id: 'intro', node_id: 'n' })),
      );
      limited += results.filter((r) => r.status === 429).length;
    }
    expect(limited).toBeGreaterThan(0);
  });
});

describe('POST /api/funnels/{id}/analytics', () => {
  it('reports views, watch time, completion, clicks, paths and a daily series for the owner and admins', async () => {
    const { owner, funnel } = await publishedFunnel();
    const ref = funnel.identifier;
    const viewers = [client(), client()];
    for (const viewer of viewers) {
      const start = (await viewer.post(`/api/funnels/${ref}/views`, { event_id: uuid() })).body.data;
      await viewer.put(`/api/funnels/${ref}/views`, {
        view_id: start.view_id,
        view_token: start.view_token,
        viewer_token: start.viewer_token,
        editor_id: 'intro',
        last_watch_time: 58,
        // A view just started: watched at most the slack (it has seeked to 58 s).
        watch_time: 25,
        duration: 60,
      });
      await viewer.post(`/api/funnels/${ref}/interactions`, {
        event_id: uuid(),
        view_id: start.view_id,
        view_token: start.view_token,
        video_id: 'intro',
        node_id: 'el-1-b1',
        connected_node: 'second',
        player_time: 5,
      });
    }
    const today = new Date().toISOString().slice(0, 10);
    const res = await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: today, to: today }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      range: { from: today, to: today },
      views: { total: 2, unique: 2 },
      watch_time: { total: 50, average: 25 },
      clicks: [{ video_id: 'intro', node_id: 'el-1-b1', clicks: 2 }],
      paths: [{ from: 'intro', branch: 'el-1-b1', to: 'second', count: 2 }],
      series: [{ date: today, views: 2, clicks: 2 }],
    });
    expect(res.body.data.completion).toEqual([
      { editor_id: 'intro', started: 2, completed: 2, rate: 1 },
      { editor_id: 'second', started: 0, completed: 0, rate: 0 },
    ]);
    expect((await suite.admin.http.post(`/api/funnels/${funnel.id}/analytics`, {}, suite.admin.token)).status).toBe(200);
    const bad = await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: '2026-02-10', to: '2026-01-01' }, owner.token);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['from']);
    const tooLong = await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: '2025-01-01', to: '2026-01-02' }, owner.token);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual({ from: ['The date range must not be longer than a year.'] });
  });
});

describe('the player payload cache across app processes', () => {
  const title = async (reference: string) => (await client().get(`/api/funnels/${reference}/player`)).body.data?.title as string;

  it('drops a payload when another process bumps the cache version in the database', async () => {
    const { funnel } = await publishedFunnel();
    expect(await title(funnel.identifier)).toBe('Two videos');
    // Another app process saves the funnel: the row changes and the version moves in the database.
    await suite.db('branchify_funnels').where({ id: funnel.id }).update({ title: 'Saved on another node' });
    expect(await title(funnel.identifier)).toBe('Two videos');
    const now = new Date();
    await suite.db.raw(
      `INSERT INTO branchify_cache_versions (scope, version, created_at, updated_at) VALUES ('player', 1, ?, ?)
       ON CONFLICT (scope) DO UPDATE SET version = branchify_cache_versions.version + 1`,
      [now, now],
    );
    // This process looks at the version every CACHE_VERSION_CHECK_MS (500 ms), well inside the cache's 5 s.
    let seen = '';
    for (let i = 0; i < 20 && seen !== 'Saved on another node'; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await title(funnel.identifier);
    }
    expect(seen).toBe('Saved on another node');
  });

  it('bumps the version with every save, and shows a branding change at once', async () => {
    const { owner, funnel, a, b } = await publishedFunnel();
    const version = async () => Number((await suite.db('branchify_cache_versions').where({ scope: 'player' }).first('version'))?.version ?? 0);
    const before = await version();
    const saved = await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id, 'Renamed'), owner.token);
    expect(saved.status).toBe(200);
    expect(await version()).toBeGreaterThan(before);
    expect(await title(funnel.identifier)).toBe('Renamed');

    const name = (await client().get('/api/customizations')).body.data.app_name;
    await client().get(`/api/funnels/${funnel.identifier}/player`);
    try {
      expect((await suite.admin.http.post('/api/admin/customizations', { app_name: 'Cache Check' }, suite.admin.token)).status).toBe(200);
      expect((await client().get(`/api/funnels/${funnel.identifier}/player`)).body.data.app.name).toBe('Cache Check');
    } finally {
      await suite.admin.http.post('/api/admin/customizations', { app_name: name }, suite.admin.token);
    }
  });
});
