import type { Knex } from 'knex';
import { LockTimeout, postgresClusterLock } from '../../plugins/branchify/server/src/billing/cluster-lock';
import { openDb } from './support/db';
import { createPlan } from './support/stripe';
import { adminSession, verifiedUser, type Session } from './support/users';

/**
 * Another app process on the same PostgreSQL database holds a user's billing lock (played here by
 * a lock on a connection of the test's own): the server's subscribe waits for it, then goes on.
 * SQLite serves one process, so there is nothing to share there.
 */
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('billing locks across app processes (PostgreSQL)', () => {
  let db: Knex;
  let admin: Session;
  let free: { id: number };
  beforeAll(async () => {
    db = openDb();
    admin = await adminSession();
    free = await createPlan(admin, { price: '0', payment_schedule: 'free' });
  });
  afterAll(() => db.destroy());

  const rowsOf = (user: Session) => db('branchify_subscriptions').where({ user_id: user.id });

  it("waits while another process holds the user's billing lock, then subscribes once", async () => {
    const user = await verifiedUser();
    const otherProcess = postgresClusterLock(db, process.env.DATABASE_SCHEMA!, 60_000);
    const release = await otherProcess.acquire(`billing-user:${user.id}`);
    let answered = false;
    const pending = user.http.post('/api/users/subscriptions', { plan_id: free.id }, user.token).then((res) => {
      answered = true;
      return res;
    });
    // While the other process holds the lock, nothing is answered and nothing is written. The wait
    // is the point: an absence is watched for a while (the server polls the lock, so it leaves no
    // waiter in pg_locks to poll for).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(answered).toBe(false);
    expect(await rowsOf(user)).toHaveLength(0);

    await release();
    const res = await pending;
    expect(res.status).toBe(201);
    expect(await rowsOf(user)).toHaveLength(1);
    await otherProcess.close();
  });

  it("other users' billing is not held up by one user's lock", async () => {
    const held = await verifiedUser();
    const user = await verifiedUser();
    const otherProcess = postgresClusterLock(db, process.env.DATABASE_SCHEMA!, 60_000);
    const release = await otherProcess.acquire(`billing-user:${held.id}`);
    const res = await user.http.post('/api/users/subscriptions', { plan_id: free.id }, user.token);
    expect(res.status).toBe(201);
    await release();
    await otherProcess.close();
  });

  it('gives up on a lock another process never releases: a 503 to retry, not a request hanging forever', async () => {
    const key = `billing-user:stuck-${Date.now()}`;
    const holder = postgresClusterLock(db, process.env.DATABASE_SCHEMA!, 60_000);
    const release = await holder.acquire(key);
    const otherDb = openDb();
    const waiter = postgresClusterLock(otherDb, process.env.DATABASE_SCHEMA!, 300);
    const refused = await waiter.acquire(key).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(LockTimeout);
    expect(refused).toMatchObject({
      status: 503,
      message: 'The service is briefly unavailable. Please try again in a moment.',
      headers: { 'Retry-After': '5' },
    });
    // Once released, the same key is had at once.
    await release();
    const again = await waiter.acquire(key);
    await again();
    await waiter.close();
    await holder.close();
    await otherDb.destroy();
  });
});
