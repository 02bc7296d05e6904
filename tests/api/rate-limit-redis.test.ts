import crypto from 'node:crypto';
import Redis from 'ioredis';
import { MESSAGES } from '@branchify/shared';
import { call, spawnApp, type SpawnedApp } from './support/spawn';

/**
 * With REDIS_URL set (Redis on 127.0.0.1:6379), rate-limit counters live in Redis under the
 * install's key prefix and expire with their window; the database keeps none. Without Redis
 * reachable, the database counts instead.
 */
const REDIS_URL = 'redis://127.0.0.1:6379';

describe('rate limits counted in Redis', () => {
  const prefix = `branchify-test-${crypto.randomBytes(4).toString('hex')}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  let app: SpawnedApp | null = null;

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await app?.cleanUp();
  });

  it('limits failed logins per account in Redis, with the window as the key expiry', async () => {
    await redis.connect();
    app = await spawnApp({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
    const email = 'redis-limit@example.test';
    const statuses: number[] = [];
    let last = null as Awaited<ReturnType<typeof call>> | null;
    for (let i = 0; i < 6; i += 1) {
      last = await call(`${app.base}/api/auth/login`, { method: 'POST', body: { email, password: 'wrong-password-1' } });
      statuses.push(last.status);
    }
    // Five wrong passwords for one account, then the sixth is refused before the password is checked.
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    expect(last?.body.message).toBe(MESSAGES.tooManyRequests);

    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    const ttl = await redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);

    const db = app.openDb();
    try {
      expect(Number((await db('branchify_rate_limits').count({ n: '*' }))[0]!.n)).toBe(0);
    } finally {
      await db.destroy();
    }
  });

  it('counts parallel wrong passwords before checking them, so at most the budget is checked', async () => {
    if (!app) app = await spawnApp({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
    const base = app.base;
    const email = 'redis-parallel@example.test';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(`${base}/api/auth/login`, { method: 'POST', body: { email, password: `wrong-password-${i}` } })),
    );
    const checked = answers.filter((res) => res.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(checked.every((res) => res.status === 422)).toBe(true);
  });
});
