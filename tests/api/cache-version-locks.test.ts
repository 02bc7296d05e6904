import type { Knex } from 'knex';
import { addVideo, createFunnel, freePlan, publishedFunnel, subscribedUser, twoVideoDocument } from './support/content';
import { isPostgres, openDb } from './support/db';
import { useApiSuite } from './support/suite';

/**
 * Every write to what the player shows bumps one shared row (the 'player' cache version). A
 * write's transaction must never hold that row while it waits for another: two such
 * transactions, each waiting for a row the other holds, deadlock, and PostgreSQL aborts one of
 * them (a plan change answered 500 while a Stripe webhook wrote the same user). SQLite has one
 * writer at a time, so there is no wait to test there.
 */
const onPostgres = isPostgres() ? describe : describe.skip;
const suite = useApiSuite();

onPostgres('the player cache version while a write waits (PostgreSQL)', () => {
  let other: Knex;
  beforeAll(() => {
    other = openDb();
  });
  afterAll(() => other.destroy());

  const version = async () => Number((await suite.db('branchify_cache_versions').where({ scope: 'player' }).first('version'))?.version ?? 0);

  /** Waits until a server query on `table` is blocked on a lock. */
  const blockedOn = async (table: string) => {
    for (let i = 0; i < 100; i += 1) {
      const rows = (await suite.db.raw(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE ?`, [`%${table}%`])) as {
        rows: Array<{ n: number }>;
      };
      if (rows.rows[0]!.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no server query waited on ${table}`);
  };

  it('is free for another writer while a funnel save waits on a row, and moves once the save commits', async () => {
    const { owner, funnel, a, b } = await publishedFunnel(suite.admin);

    // Another transaction (another request, another process) holds the funnel's video links: the
    // save writes the funnel row, then waits here for the links.
    const holder = await suite.db.transaction();
    await holder('branchify_funnel_videos').where({ funnel_id: funnel.id }).forUpdate().select('id');
    // then() sends the request now (supertest sends on the first then).
    const save = owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id, 'Saved while waiting'), owner.token).then((res) => res);
    let bumped: number;
    try {
      await blockedOn('branchify_funnel_videos');
      const before = await version();
      // A third writer bumps the version now; before the fix the waiting save held its row.
      bumped = await other.transaction(async (trx) => {
        await trx.raw(`SET LOCAL lock_timeout = '3s'`);
        await trx('branchify_cache_versions').where({ scope: 'player' }).increment('version', 1);
        return Number((await trx('branchify_cache_versions').where({ scope: 'player' }).first('version')).version);
      });
      expect(bumped).toBe(before + 1);
    } finally {
      await holder.commit();
    }
    const saved = await save;
    expect(saved.status).toBe(200);
    // The save's own bump came after its commit, before its answer.
    expect(await version()).toBeGreaterThan(bumped);
  });

  it('answers every one of many parallel funnel saves and owner status changes touching the same users', async () => {
    const free = await freePlan(suite.admin);
    const owners = await Promise.all([0, 1, 2].map(() => subscribedUser(suite.admin, free.id)));
    const funnels = await Promise.all(
      owners.map(async (owner) => {
        const a = await addVideo(owner, { title: 'Intro' });
        const b = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Second' });
        return { owner, funnel: await createFunnel(owner), a, b };
      }),
    );
    const writes = funnels.flatMap(({ owner, funnel, a, b }, i) => [
      ...[0, 1, 2].map((k) => owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id, `Save ${i}.${k}`), owner.token)),
      suite.admin.http.put(`/api/admin/users/${owner.id}`, { status: 'active' }, suite.admin.token),
    ]);
    const statuses = (await Promise.all(writes)).map((res) => res.status);
    expect(statuses).toEqual(statuses.map(() => 200));
  });
});
