// @serial: changes rows without parents in shared tables for the whole install (tests/harness/groups.js)
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { FOREIGN_KEYS, ensureForeignKeys, foreignKeyName } from '../../plugins/branchify/server/src/content-types/foreign-keys';
import { ensureForeignKeysSqlite } from '../../plugins/branchify/server/src/content-types/foreign-keys-sqlite';
import { isPostgres, openDb } from './support/db';

/**
 * The foreign keys the database enforces, added to a database filled by the schema that had none:
 * every row is kept (rows pointing at nothing are named: on PostgreSQL their key stays unvalidated
 * until cleaned up), and once in place the database refuses dangling rows and applies each key's
 * delete rule.
 */
const describePg = isPostgres() ? describe : describe.skip;
const describeSqlite = isPostgres() ? describe.skip : describe;

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

describeSqlite('foreign keys (SQLite)', () => {
  let file: string;
  let db: Knex;
  const tables = [...new Set(FOREIGN_KEYS.flatMap((fk) => [fk.table, fk.references]))];
  // Our key clauses as they stand in a table's definition once added.
  const ourClauses = FOREIGN_KEYS.map(
    (fk) =>
      new RegExp(
        `,\\s*CONSTRAINT\\s+"${foreignKeyName(fk)}"\\s+FOREIGN KEY\\s*\\([^)]*\\)\\s*REFERENCES\\s+"[^"]+"\\s*\\([^)]*\\)\\s*ON DELETE (CASCADE|RESTRICT|SET NULL)`,
      ),
  );
  const definitions = async () =>
    (await db.raw(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name`)) as Array<{ type: string; name: string; sql: string }>;
  const keysOf = async (table: string) =>
    (await db.raw('SELECT "from", "table", on_delete FROM pragma_foreign_key_list(?)', [table])) as Array<{ from: string }>;

  beforeAll(async () => {
    // A copy of the whole schema with our keys taken out (Strapi's own kept): the database an
    // existing install has.
    const live = openDb();
    const objects = (await live.raw(
      `SELECT type, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END`,
    )) as Array<{ type: string; sql: string }>;
    await live.destroy();
    file = path.join(path.dirname(path.resolve(process.env.DATABASE_FILENAME!)), `fk-migration-${process.pid}.db`);
    db = knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    for (const object of objects) await db.raw(ourClauses.reduce((sql, clause) => sql.replace(clause, ''), object.sql));
    for (const fk of FOREIGN_KEYS) expect((await keysOf(fk.table)).map((k) => k.from)).not.toContain(fk.column);
  });
  afterAll(async () => {
    await db?.destroy();
    if (file) for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
  });

  // better-sqlite3's errors are not Errors of the test's realm: their message is matched.
  const count = async (table: string) => Number((await db(table).count({ n: '*' }))[0]!.n);
  const id = async (table: string, row: object) => ((await db(table).insert(row).returning('id')) as Array<{ id: number }>)[0]!.id;
  const everyRow = async () => Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await db(t).select().orderBy('id')] as const)));

  it('migrates a filled database without losing a row, then holds every reference', async () => {
    const now = Date.now();
    const user = await id('up_users', { username: 'fk', email: 'fk@example.test', created_at: now, updated_at: now });
    const role = await id('up_roles', { name: 'FK role', type: 'fk-role', created_at: now, updated_at: now });
    // Strapi's own link to the user, with Strapi's own key.
    await db('up_users_role_lnk').insert({ user_id: user, role_id: role });
    const gone = await id('up_users', { username: 'fk-gone', email: 'fk-gone@example.test', created_at: now, updated_at: now });
    await db('up_users').where({ id: gone }).delete();
    const plan = await id('branchify_plans', { name: 'FK plan', price: '0', currency: 'usd', payment_schedule: 'free', managed_by: 'platform' });
    const sub = await id('branchify_subscriptions', { user_id: user, plan_id: plan, status: 'active', managed_by: 'platform' });
    await db('up_users').where({ id: user }).update({ subscription_id: sub });
    await db('branchify_invoices').insert({ user_id: user, subscription_id: sub, invoice_id: 'in_fk', amount: 0, currency: 'usd', status: 'paid' });
    const video = await id('branchify_videos', { owner_id: user, provider: 'generic', title: 'v' });
    const funnel = await id('branchify_funnels', { owner_id: user, identifier: 'fk-funnel', title: 'f' });
    await db('branchify_funnel_videos').insert({ funnel_id: funnel, video_id: video, owner_id: user });
    await db('branchify_funnel_views').insert({ funnel_id: funnel, event_id: 'fk-view-1', viewer_token: 't' });
    // A row an old install may hold: a view of a funnel deleted long ago.
    await db('branchify_funnel_views').insert({ funnel_id: 987654, event_id: 'fk-orphan', viewer_token: 't' });
    const before = await everyRow();
    const indexes = (await definitions()).filter((d) => d.type === 'index');

    const first = await ensureForeignKeysSqlite(db);
    expect(first.added.sort()).toEqual(FOREIGN_KEYS.map(foreignKeyName).sort());
    expect(first.unvalidated).toEqual(['branchify_funnel_views_funnel_id_fk']);
    expect(await everyRow()).toEqual(before);
    expect((await definitions()).filter((d) => d.type === 'index')).toEqual(indexes);
    for (const fk of FOREIGN_KEYS) expect(await keysOf(fk.table)).toContainEqual({ from: fk.column, table: fk.references, on_delete: fk.onDelete });
    // Enforced, and the only row pointing at nothing is the old one (Strapi's link to the user too).
    expect((await db.raw('PRAGMA foreign_keys'))[0].foreign_keys).toBe(1);
    expect(await db.raw('PRAGMA foreign_key_check')).toEqual([
      { table: 'branchify_funnel_views', rowid: expect.any(Number), parent: 'branchify_funnels', fkid: 0 },
    ]);
    // Ids handed out never come back.
    expect(await id('up_users', { username: 'fk-new', email: 'fk-new@example.test', created_at: now, updated_at: now })).toBeGreaterThan(gone);

    // New rows are checked at once.
    await expect(db('branchify_funnel_views').insert({ funnel_id: 555555, event_id: 'fk-new-orphan' })).rejects.toHaveProperty(
      'message',
      expect.stringMatching(/FOREIGN KEY/),
    );
    await expect(db('branchify_subscriptions').insert({ user_id: 424242, plan_id: plan, status: 'active', managed_by: 'platform' })).rejects.toHaveProperty(
      'message',
      expect.stringMatching(/FOREIGN KEY/),
    );

    // The next start finds the keys in place and rebuilds nothing.
    const schema = await definitions();
    expect(await ensureForeignKeysSqlite(db)).toEqual({ added: [], unvalidated: [] });
    expect(await definitions()).toEqual(schema);
    await db('branchify_funnel_views').where({ event_id: 'fk-orphan' }).delete();

    // Strapi's schema sync changing one of these tables later (it turns enforcement off meanwhile)
    // keeps the keys: a new column, and a column redefined (SQLite rebuilds the table for that).
    await db.raw('PRAGMA foreign_keys = off');
    await db.schema.alterTable('branchify_funnels', (t) => t.string('fk_later'));
    await db.schema.alterTable('branchify_funnel_videos', (t) => t.integer('owner_id').nullable().alter());
    await db.raw('PRAGMA foreign_keys = on');
    for (const fk of FOREIGN_KEYS) expect(await keysOf(fk.table)).toContainEqual({ from: fk.column, table: fk.references, on_delete: fk.onDelete });
    expect(await db.raw('PRAGMA foreign_key_check')).toEqual([]);

    // Restrict: a plan with subscriptions and a video a funnel uses stay.
    await expect(db('branchify_plans').where({ id: plan }).delete()).rejects.toHaveProperty('message', expect.stringMatching(/FOREIGN KEY/));
    await expect(db('branchify_videos').where({ id: video }).delete()).rejects.toHaveProperty('message', expect.stringMatching(/FOREIGN KEY/));
    // Set null: pointers to a removed subscription.
    await db('branchify_subscriptions').where({ id: sub }).delete();
    expect((await db('up_users').where({ id: user }).first('subscription_id')).subscription_id).toBeNull();
    expect((await db('branchify_invoices').where({ user_id: user }).first('subscription_id')).subscription_id).toBeNull();
    // Cascade: a funnel takes its links and views.
    await db('branchify_funnels').where({ id: funnel }).delete();
    expect(await count('branchify_funnel_videos')).toBe(0);
    expect(await count('branchify_funnel_views')).toBe(0);
    // Cascade: the user takes what they own (a funnel still using their video too), and Strapi's
    // link to their role.
    const other = await id('branchify_funnels', { owner_id: user, identifier: 'fk-funnel-2', title: 'f2' });
    await db('branchify_funnel_videos').insert({ funnel_id: other, video_id: video, owner_id: user });
    await db('branchify_funnel_views').insert({ funnel_id: other, event_id: 'fk-view-2', viewer_token: 't' });
    await db('up_users').where({ id: user }).delete();
    for (const table of [
      'branchify_videos',
      'branchify_funnels',
      'branchify_funnel_videos',
      'branchify_funnel_views',
      'branchify_invoices',
      'up_users_role_lnk',
    ])
      expect([table, await count(table)]).toEqual([table, 0]);
    expect(await count('up_roles')).toBeGreaterThan(0);
  });
});
