import knexFactory, { type Knex } from 'knex';
import { useSupportedSqliteDriver } from '@branchify/shared/node';
import { MARKS, markId, newMarks, reachedMark } from '../../plugins/branchify/server/src/analytics/rollups';

/**
 * Marks recorded in bulk (a counter build's chunk holds thousands) on SQLite, whose multi-row
 * insert knex writes as one compound SELECT of at most 500 rows: all stored, each new once.
 */
describe('analytics marks in bulk on SQLite', () => {
  let db: Knex;
  beforeAll(async () => {
    // knex loads the driver by the name it knows: this Node's build of it under that name, as the server does.
    useSupportedSqliteDriver();
    db = knexFactory({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    await db.schema.createTable(MARKS, (t) => {
      t.increments('id');
      t.integer('funnel_id');
      t.string('view_key');
      t.text('mark');
      t.unique(['view_key', 'mark']);
    });
  });
  afterAll(() => db.destroy());

  it('stores 2,400 marks in one call and answers each as new once', async () => {
    const marks = Array.from({ length: 1200 }, (_, i) => [
      { funnel_id: 1, view_key: `view-${i}`, mark: reachedMark('intro') },
      { funnel_id: 1, view_key: `view-${i}`, mark: reachedMark('a') },
    ]).flat();
    const fresh = await db.transaction((trx) => newMarks(trx, marks));
    expect(fresh.size).toBe(2400);
    expect(fresh.has(markId('view-1199', reachedMark('a')))).toBe(true);
    expect((await db.transaction((trx) => newMarks(trx, marks))).size).toBe(0);
    expect(Number((await db(MARKS).count({ n: '*' }).first())?.n)).toBe(2400);
  });
});
