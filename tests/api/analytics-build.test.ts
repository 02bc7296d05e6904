import type { Knex } from 'knex';
import { uuid } from './support/content';
import { client } from './support/http';
import { isPostgres } from './support/db';
import { useApiSuite } from './support/suite';
import { day, dropCounters, edge, mapFunnel, node, viewer, viewTokenOf, type Report } from './support/analytics';

/**
 * Counters built from rows stored without them (before counters existed, or loaded in bulk) while
 * writers keep storing and counting new rows: every event counted once, and no writer waits for
 * the build to end.
 */
const suite = useApiSuite();
const onPostgres = isPostgres() ? describe : describe.skip;

const LEGACY_VIEWS = 2400;
/** Views a bulk load left on video a (the rest are still on the intro). */
const ON_A = LEGACY_VIEWS / 2;

/** Rows as an import would load them: views (half moved on to a, with progress), each with a click to a, and inaction defaults without a view. */
const loadLegacyRows = async (db: Knex, funnelId: number, count = LEGACY_VIEWS) => {
  const at = new Date(Date.now() - 10 * 60_000);
  const views = Array.from({ length: count }, (_, i) => ({
    funnel_id: funnelId,
    event_id: uuid(),
    viewer_token: `legacy-viewer-${String(i % 1000).padStart(8, '0')}`,
    watch_time: 0,
    last_watch_time: 0,
    editor_id: i < ON_A ? 'a' : null,
    progress: i < ON_A ? JSON.stringify({ intro: { max: 9.5, duration: 10 }, a: { max: 2, duration: 10 } }) : null,
    created_at: at,
    updated_at: at,
  }));
  for (let i = 0; i < views.length; i += 200) await db('branchify_funnel_views').insert(views.slice(i, i + 200));
  const click = (view: { event_id: string }) => ({
    funnel_id: funnelId,
    event_id: uuid(),
    view_id: view.event_id,
    video_id: 'intro',
    node_id: 'b1',
    connected_node: 'a',
    type: 'branch',
    player_time: 5,
    created_at: at,
    updated_at: at,
  });
  const inaction = () => ({ ...click({ event_id: '' }), event_id: uuid(), view_id: null, node_id: 'b2', connected_node: 'b', type: 'inaction' });
  const interactions = count === LEGACY_VIEWS ? [...views.slice(0, ON_A).map(click), ...Array.from({ length: 600 }, inaction)] : views.map(click);
  for (let i = 0; i < interactions.length; i += 200) await db('branchify_funnel_interactions').insert(interactions.slice(i, i + 200));
  return views;
};

const report = async (owner: Awaited<ReturnType<typeof mapFunnel>>['owner'], funnelId: number): Promise<Report> => {
  const res = await owner.http.post(`/api/funnels/${funnelId}/analytics`, { from: day(-1), to: day() }, owner.token);
  expect(res.status).toBe(200);
  return res.body.data as Report;
};

/** What live viewers do during the build: ten new plays to a, and the first ten bulk-loaded views moved on to b. */
const liveTraffic = async (reference: string, legacy: Array<{ event_id: string; viewer_token: string }>, skip?: string) => {
  const http = client();
  const moved = legacy.filter((v) => v.event_id !== skip).slice(0, 10);
  const answers = await Promise.all([
    ...Array.from({ length: 10 }, () => viewer(reference).view([{ node: 'b1', to: 'a' }], 'a')),
    ...moved.map(async (v) => {
      const view_token = await viewTokenOf(reference, v.event_id, http);
      const put = await http.put(`/api/funnels/${reference}/views`, {
        view_id: v.event_id,
        view_token,
        viewer_token: v.viewer_token,
        editor_id: 'b',
        last_watch_time: 3,
        watch_time: 3,
      });
      return put.status;
    }),
  ]);
  expect(answers.slice(10)).toEqual(moved.map(() => 200));
};

/** The figures every run of this test must give, however the build and the writers interleave. */
const expectFigures = (r: Report) => {
  // Views: the bulk load and ten live ones. Clicks to a: one per loaded view on a, and one per live view.
  expect(r.views.total).toBe(LEGACY_VIEWS + 10);
  expect(edge(r, 'b1', 'button')).toMatchObject({ viewers: ON_A + 10 });
  expect(edge(r, 'b2', 'inaction')).toMatchObject({ viewers: 600 });
  // Reached: every view the intro; a by a click or progress; b by the 600 defaults and the ten moved views.
  expect(node(r, 'intro')).toMatchObject({ reached: LEGACY_VIEWS + 10 });
  expect(node(r, 'a')).toMatchObject({ reached: ON_A + 10 });
  expect(node(r, 'b')).toMatchObject({ reached: 610 });
  // Ended: ten loaded views moved from the first half (on a) to b.
  expect(node(r, 'a')).toMatchObject({ drop_off: ON_A - 10 + 10 });
  expect(node(r, 'b')).toMatchObject({ drop_off: 10 });
  expect(node(r, 'intro')).toMatchObject({ drop_off: LEGACY_VIEWS - ON_A });
};

/** The funnel's rows the counters do not include yet. */
const uncounted = async (db: Knex, funnelId: number): Promise<number> =>
  Number((await db('branchify_funnel_views').where({ funnel_id: funnelId }).whereNull('counted').count({ n: '*' }).first())?.n ?? 0) +
  Number((await db('branchify_funnel_interactions').where({ funnel_id: funnelId }).whereNull('counted').count({ n: '*' }).first())?.n ?? 0);

describe('counters built from bulk-loaded rows while viewers keep playing', () => {
  it('counts every loaded row and every live event once, and agrees with a build from scratch', async () => {
    const { owner, funnel } = await mapFunnel(suite.admin);
    const legacy = await loadLegacyRows(suite.db, funnel.id);
    const building = report(owner, funnel.id);
    await liveTraffic(funnel.identifier, legacy);
    await building;
    const built = await report(owner, funnel.id);
    expectFigures(built);
    expect(await uncounted(suite.db, funnel.id)).toBe(0);

    await dropCounters(suite.db, funnel.id);
    expect(await report(owner, funnel.id)).toEqual(built);
  });

  it('counts a view loaded into a funnel that has counters, and moves it on once counted', async () => {
    const { owner, funnel } = await mapFunnel(suite.admin);
    await viewer(funnel.identifier).view([{ node: 'b1', to: 'a' }], 'a');
    const [loaded] = await loadLegacyRows(suite.db, funnel.id, 1);
    const before = await report(owner, funnel.id);
    expect(before.views.total).toBe(2);
    expect(node(before, 'a')).toMatchObject({ reached: 2, drop_off: 2 });
    expect(await uncounted(suite.db, funnel.id)).toBe(0);
    const put = await client().put(`/api/funnels/${funnel.identifier}/views`, {
      view_id: loaded!.event_id,
      view_token: await viewTokenOf(funnel.identifier, loaded!.event_id),
      viewer_token: loaded!.viewer_token,
      editor_id: 'b',
      last_watch_time: 3,
      watch_time: 3,
    });
    expect(put.status).toBe(200);
    const after = await report(owner, funnel.id);
    expect(node(after, 'a')).toMatchObject({ reached: 2, drop_off: 1 });
    expect(node(after, 'b')).toMatchObject({ reached: 1, drop_off: 1 });
  });
});

onPostgres('counter builds on PostgreSQL', () => {
  it('let writers store and count while a build is under way, then finish exactly', async () => {
    const { owner, funnel } = await mapFunnel(suite.admin);
    const legacy = await loadLegacyRows(suite.db, funnel.id);
    // Another process's build holds one loaded view: this build counts everything else and waits for it.
    const held = legacy[legacy.length - 1]!;
    const other = await suite.db.transaction();
    let building: Promise<Report> | undefined;
    try {
      await other('branchify_funnel_views').where({ event_id: held.event_id }).forUpdate().first('id');
      let done = false;
      building = report(owner, funnel.id).then((r) => {
        done = true;
        return r;
      });
      const started = Date.now();
      while ((await uncounted(suite.db, funnel.id)) > 1 && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 50));
      expect(await uncounted(suite.db, funnel.id)).toBe(1);

      // The build is under way and cannot end: live viewers are stored and answered all the same.
      await liveTraffic(funnel.identifier, legacy, held.event_id);
      expect(done).toBe(false);
    } finally {
      await other.commit();
    }
    // Released, the row is counted and the build ends.
    expectFigures(await building!);
    expect(await uncounted(suite.db, funnel.id)).toBe(0);
  });
});
