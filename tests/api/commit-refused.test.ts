import type { Knex } from 'knex';
import { addVideo, createFunnel, freePlan, subscribedUser, twoVideoDocument, uuid } from './support/content';
import { openDb } from './support/db';
import { client } from './support/http';
import { adminSession } from './support/users';

/**
 * A write is acknowledged only once the database has committed it. A deferred constraint trigger
 * makes PostgreSQL refuse the COMMIT itself (as a connection cut by a restart at that moment
 * would): the answer is an error and nothing is stored, never a success for a rolled-back write.
 * SQLite cannot refuse a COMMIT this way.
 */
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('a COMMIT the database refuses (PostgreSQL)', () => {
  let db: Knex;
  beforeAll(async () => {
    db = openDb();
    await db.raw(
      `CREATE OR REPLACE FUNCTION refuse_at_commit_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused at commit by the test'; END $$`,
    );
  });
  afterAll(async () => {
    await db.raw('DROP FUNCTION IF EXISTS refuse_at_commit_for_test() CASCADE');
    await db.destroy();
  });

  const refuseAtCommit = (table: string, when: string) =>
    db.raw(
      `CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT OR UPDATE ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION refuse_at_commit_for_test()`,
    );
  const accept = (table: string) => db.raw(`DROP TRIGGER IF EXISTS refuse_at_commit ON ${table}`);

  const playableFunnel = async () => {
    const admin = await adminSession();
    const owner = await subscribedUser(admin, (await freePlan(admin)).id);
    const a = await addVideo(owner, { title: 'Intro' });
    const b = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Second' });
    const funnel = await createFunnel(owner);
    expect((await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), owner.token)).status).toBe(200);
    return { owner, funnel, a, b };
  };

  it('does not acknowledge a view whose COMMIT failed; the retry is stored', async () => {
    const { funnel } = await playableFunnel();
    const eventId = uuid();
    await refuseAtCommit('branchify_funnel_views', `NEW.event_id = '${eventId}'`);
    try {
      const res = await client().post(`/api/funnels/${funnel.identifier}/views`, { event_id: eventId });
      expect(res.status).toBe(500);
      expect(res.body.success).toBe(false);
      expect(JSON.stringify(res.body)).not.toMatch(/refused at commit/);
      expect(await db('branchify_funnel_views').where({ event_id: eventId })).toEqual([]);
    } finally {
      await accept('branchify_funnel_views');
    }
    const retry = await client().post(`/api/funnels/${funnel.identifier}/views`, { event_id: eventId });
    expect(retry.status).toBe(201);
    expect(await db('branchify_funnel_views').where({ event_id: eventId })).toHaveLength(1);
  });

  it('does not acknowledge a funnel save whose COMMIT failed; the funnel keeps its last saved version', async () => {
    const { owner, funnel, a, b } = await playableFunnel();
    const before = await db('branchify_funnels').where({ id: funnel.id }).first();
    await refuseAtCommit('branchify_funnels', `NEW.title = 'Refused at commit'`);
    try {
      const res = await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id, 'Refused at commit'), owner.token);
      expect(res.status).toBe(500);
      expect(res.body.success).toBe(false);
    } finally {
      await accept('branchify_funnels');
    }
    const after = await db('branchify_funnels').where({ id: funnel.id }).first();
    expect({ title: after.title, version: after.version }).toEqual({ title: before.title, version: before.version });
  });
});
