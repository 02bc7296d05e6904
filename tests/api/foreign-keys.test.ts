import knexFactory, { type Knex } from 'knex';
import { FOREIGN_KEYS, ensureForeignKeys, foreignKeyName } from '../../plugins/branchify/server/src/content-types/foreign-keys';
import { isPostgres, openDb } from './support/db';

/**
 * The foreign keys PostgreSQL enforces, added to a database filled by the schema that had none:
 * every row is kept (rows pointing at nothing leave their key unvalidated until cleaned up), and
 * once in place the database refuses dangling rows and applies each key's delete rule.
 */
const describePg = isPostgres() ? describe : describe.skip;

describePg('foreign keys (PostgreSQL)', () => {
  const schema = `fk_migration_${process.pid}_${Date.now() % 100000}`;
  let run: Knex;
  let db: Knex;
  const tables = [...new Set(FOREIGN_KEYS.flatMap((fk) => [fk.table, fk.references]))];

  beforeAll(async () => {
    run = openDb();
    // A copy of today's tables without foreign keys: the database an existing install has.
    await run.raw('CREATE SCHEMA ??', [schema]);
    for (const table of tables) await run.raw('CREATE TABLE ??.?? (LIKE ??.?? INCLUDING ALL)', [schema, table, process.env.DATABASE_SCHEMA!, table]);
    db = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, searchPath: [schema], pool: { min: 0, max: 2 } });
  });
  afterAll(async () => {
    await db?.destroy();
    await run.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await run.destroy();
  });

  const count = async (table: string) => Number((await db(table).count({ n: '*' }))[0]!.n);
  const id = async (table: string, row: object) => ((await db(table).insert(row).returning('id')) as Array<{ id: number }>)[0]!.id;

  it('migrates a filled database without losing a row, then holds every reference', async () => {
    const now = new Date();
    const user = await id('up_users', { username: 'fk', email: 'fk@example.test', created_at: now, updated_at: now });
    const plan = await id('branchify_plans', { name: 'FK plan', price: '0', currency: 'usd', payment_schedule: 'free', managed_by: 'platform' });
    const sub = await id('branchify_subscriptions', { user_id: user, plan_id: plan, status: 'active', managed_by: 'platform' });
    await db('up_users').where({ id: user }).update({ subscription_id: sub });
    const video = await id('branchify_videos', { owner_id: user, provider: 'generic', title: 'v' });
    const funnel = await id('branchify_funnels', { owner_id: user, identifier: 'fk-funnel', title: 'f' });
    await db('branchify_funnel_videos').insert({ funnel_id: funnel, video_id: video, owner_id: user });
    await db('branchify_funnel_views').insert({ funnel_id: funnel, event_id: 'fk-view-1', viewer_token: 't' });
    // A row an old install may hold: a view of a funnel deleted long ago.
    await db('branchify_funnel_views').insert({ funnel_id: 987654, event_id: 'fk-orphan', viewer_token: 't' });
    const before = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)] as const)));

    const first = await ensureForeignKeys(db, schema);
    expect(first.added.sort()).toEqual(FOREIGN_KEYS.map(foreignKeyName).sort());
    expect(first.unvalidated).toEqual(['branchify_funnel_views_funnel_id_fk']);
    const after = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)] as const)));
    expect(after).toEqual(before);

    // New rows are checked at once, even under the unvalidated key.
    await expect(db('branchify_funnel_views').insert({ funnel_id: 555555, event_id: 'fk-new-orphan' })).rejects.toThrow(/foreign key/);
    await expect(db('branchify_subscriptions').insert({ user_id: 424242, plan_id: plan, status: 'active', managed_by: 'platform' })).rejects.toThrow(
      /foreign key/,
    );

    // Once the operator removes the dangling row, the next start validates the key.
    await db('branchify_funnel_views').where({ event_id: 'fk-orphan' }).delete();
    const second = await ensureForeignKeys(db, schema);
    expect(second).toEqual({ added: [], unvalidated: [] });
    const pending = await db.raw(
      `SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = ? AND c.contype = 'f' AND NOT c.convalidated`,
      [schema],
    );
    expect(pending.rows).toEqual([]);

    // Restrict: a plan with subscriptions and a video a funnel uses stay.
    await expect(db('branchify_plans').where({ id: plan }).delete()).rejects.toThrow(/foreign key/);
    await expect(db('branchify_videos').where({ id: video }).delete()).rejects.toThrow(/foreign key/);
    // Cascade: a funnel takes its links and views; set null: a user's pointer to a removed subscription.
    await db('branchify_funnels').where({ id: funnel }).delete();
    expect(await count('branchify_funnel_videos')).toBe(0);
    expect(await count('branchify_funnel_views')).toBe(0);
    await db('branchify_subscriptions').where({ id: sub }).delete();
    expect((await db('up_users').where({ id: user }).first('subscription_id')).subscription_id).toBeNull();
    // Cascade: the user takes what they own.
    await db('up_users').where({ id: user }).delete();
    expect(await count('branchify_videos')).toBe(0);
  });
});
