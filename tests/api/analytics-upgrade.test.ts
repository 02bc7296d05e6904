import type { Knex } from 'knex';
import { spawnApp, type SpawnedApp } from './support/spawn';

/**
 * An install from before rows carried the counted flag, started on this release: rows of a funnel
 * with counters were counted by their writers and are flagged so, never counted again; rows of a
 * funnel without counters are counted by a build while the app serves.
 */
describe('an install from before the counted flag', () => {
  let first: SpawnedApp | undefined;
  let second: SpawnedApp | undefined;
  afterAll(async () => {
    await second?.cleanUp();
    await first?.cleanUp();
  });

  const funnelWithView = async (db: Knex, owner: number, identifier: string) => {
    const now = new Date();
    const [funnel] = await db('branchify_funnels').insert({ owner_id: owner, identifier, title: identifier, created_at: now, updated_at: now }).returning('id');
    const id = Number(typeof funnel === 'object' ? funnel.id : funnel);
    await db('branchify_funnel_views').insert({
      funnel_id: id,
      event_id: `${identifier}-view`,
      viewer_token: 'old-viewer-token-1',
      created_at: now,
      updated_at: now,
    });
    return id;
  };
  const counters = async (db: Knex, funnelId: number) =>
    (await db('branchify_analytics_daily').where({ funnel_id: funnelId, metric: 'views' }).select('value')).map((r: { value: unknown }) => Number(r.value));

  it('flags the rows its counters include, and builds the counters a funnel lacks', async () => {
    first = await spawnApp();
    first.child.kill('SIGTERM');
    await first.exited;
    const db = first.openDb();
    let counted: number;
    let uncounted: number;
    try {
      // The tables as the previous release made them: no flag, no record of flagging.
      for (const index of ['branchify_funnel_views_uncounted_day_idx', 'branchify_funnel_interactions_uncounted_day_idx'])
        await db.raw(`DROP INDEX IF EXISTS ${index}`);
      await db.schema.alterTable('branchify_funnel_views', (t) => void t.dropColumn('counted'));
      await db.schema.alterTable('branchify_funnel_interactions', (t) => void t.dropColumn('counted'));
      await db('branchify_settings').where({ name: 'analytics-rows-flagged' }).delete();
      await db('strapi_database_schema').update({ hash: 'the previous release' });
      const now = new Date();
      const [user] = await db('up_users').insert({ username: 'old@example.test', email: 'old@example.test', created_at: now, updated_at: now }).returning('id');
      const owner = Number(typeof user === 'object' ? user.id : user);
      counted = await funnelWithView(db, owner, 'old-counted');
      const day = now.toISOString().slice(0, 10);
      await db('branchify_analytics_daily').insert({ funnel_id: counted, day, metric: 'views', node: '', branch: '', target: '', kind: '', value: 1 });
      uncounted = await funnelWithView(db, owner, 'old-uncounted');
    } finally {
      await db.destroy();
    }

    second = await spawnApp(first.databaseEnv);
    const after = first.openDb();
    try {
      const flags = async (funnelId: number) =>
        (await after('branchify_funnel_views').where({ funnel_id: funnelId }).select('counted')).map((r: { counted: unknown }) => Boolean(r.counted));
      // Built in the background: wait for the uncounted funnel's row to be counted.
      for (let i = 0; i < 100 && !(await flags(uncounted)).every(Boolean); i += 1) await new Promise((r) => setTimeout(r, 200));
      expect(await flags(counted)).toEqual([true]);
      expect(await counters(after, counted)).toEqual([1]);
      expect(await flags(uncounted)).toEqual([true]);
      expect(await counters(after, uncounted)).toEqual([1]);
      expect(await after('branchify_settings').where({ name: 'analytics-rows-flagged' }).first('name')).toEqual({ name: 'analytics-rows-flagged' });
    } finally {
      await after.destroy();
    }
  });
});
