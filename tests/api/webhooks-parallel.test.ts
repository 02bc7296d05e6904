// @serial: changes outgoing webhooks for the whole install (tests/harness/groups.js)
import fs from 'node:fs';
import type { Knex } from 'knex';
import type { DeliveryRow } from '../../plugins/branchify/server/src/content-types/webhook-delivery';
import { deliveryQueue } from '../../plugins/branchify/server/src/webhooks/queue';
import { sendOnce } from '../../plugins/branchify/server/src/webhooks/sender';
import { sign, SIGNATURE_HEADER } from '../../plugins/branchify/server/src/webhooks/signature';
import { openDb } from './support/db';
import { eventually } from './support/stripe';
import { adminSession, type Session } from './support/users';
import { createEndpoint, deliveriesOf, receiver, removeEndpoints } from './support/webhooks';

/**
 * Two more app processes' delivery workers (the queue's own code, each on a connection pool of its
 * own) race the server's worker for the same deliveries on PostgreSQL: every delivery reaches the
 * receiver exactly once, with exactly one attempt logged. SQLite serves one process.
 */
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('webhook deliveries across app processes (PostgreSQL)', () => {
  let admin: Session;
  const pools: Knex[] = [];
  beforeAll(async () => {
    admin = await adminSession();
  });
  afterAll(async () => {
    await removeEndpoints(admin);
    await Promise.all(pools.map((p) => p.destroy()));
  });

  it('never sends one delivery twice when several workers claim at once', async () => {
    const endpoint = await createEndpoint(admin);
    const ca = fs.readFileSync(process.env.WEBHOOKS_CA_FILE!, 'utf8');
    const claimed: number[][] = [[], []];
    const workers = [0, 1].map((n) => {
      const pool = openDb();
      pools.push(pool);
      return deliveryQueue(() => pool, {
        leaseMs: 60_000,
        backoffMs: () => 300,
        concurrency: 4,
        send: async (row: DeliveryRow, attempt: number) => {
          claimed[n]!.push(row.id);
          const headers = {
            'Content-Type': 'application/json',
            'Branchify-Delivery': String(row.id),
            'Branchify-Attempt': String(attempt),
            [SIGNATURE_HEADER]: sign(endpoint.secret, row.payload, Math.floor(Date.now() / 1000)),
          };
          return sendOnce(endpoint.url, row.payload, headers, { timeoutMs: 5000, ca, allowed: ['127.0.0.2'] });
        },
      });
    });

    const COUNT = 30;
    let running = true;
    const loops = workers.map(async (worker) => {
      while (running) {
        const { made } = await worker.pass();
        if (!made) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    const queued = await Promise.all(Array.from({ length: COUNT }, () => admin.http.post(`/api/admin/webhooks/${endpoint.id}/test`, {}, admin.token)));
    expect(queued.every((r) => r.status === 201)).toBe(true);

    const done = await eventually(
      () => deliveriesOf(admin, endpoint.id),
      (list) => list.length === COUNT && list.every((d) => d.status === 'succeeded'),
      300,
    );
    running = false;
    await Promise.all(loops);

    expect(done.map((d) => d.attempts)).toEqual(Array(COUNT).fill(1));
    expect(done.every((d) => d.attempt_log.length === 1)).toBe(true);
    const requests = await receiver.requests(endpoint.url);
    const ids = requests.map((r) => r.headers['branchify-delivery']);
    expect(ids).toHaveLength(COUNT);
    expect(new Set(ids).size).toBe(COUNT);
    for (const r of requests) expect(r.headers['branchify-attempt']).toBe('1');
    // What the two extra workers sent, the server did not (and neither sent the other's).
    const byWorkers = [...claimed[0]!, ...claimed[1]!];
    expect(new Set(byWorkers).size).toBe(byWorkers.length);
    console.log(
      `webhook claim race: ${COUNT} deliveries; worker A sent ${claimed[0]!.length}, worker B ${claimed[1]!.length}, the server ${COUNT - byWorkers.length}`,
    );
  });
});
