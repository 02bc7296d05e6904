import { env } from '@branchify/shared/node';
import { rawRows, type Strapi } from '../utils/strapi';
import { redisCounters, type RedisCounters } from './redis';
import type { RateLimitRow } from '../content-types/rate-limit';

export type RateBudget = 'auth' | 'ingest' | 'upload' | 'edit' | 'integrator';

interface RateVerdict {
  allowed: boolean;
  hits: number;
  retryAfterSeconds: number;
}

/**
 * The player's event ingest is limited per node, in memory: it is flood protection for a hot
 * path (a database write per event request would halve ingest), not a security boundary, and
 * N nodes simply allow N times the budget.
 */
const ingestWindows = new Map<string, { windowStart: number; hits: number }>();
/** A key's window opens at its first hit (not at a clock boundary a burst could straddle for twice the budget). */
const hitInMemory = (key: string, max: number, windowMs: number, now: number): RateVerdict => {
  let entry = ingestWindows.get(key);
  if (!entry || entry.windowStart + windowMs <= now) {
    if (ingestWindows.size > 100_000) ingestWindows.clear();
    entry = { windowStart: now, hits: 0 };
    ingestWindows.set(key, entry);
  }
  entry.hits += 1;
  return { allowed: entry.hits <= max, hits: entry.hits, retryAfterSeconds: Math.max(1, Math.ceil((entry.windowStart + windowMs - now) / 1000)) };
};

const retryAfter = (opened: number, windowMs: number, now: number) => Math.max(1, Math.ceil((opened + windowMs - now) / 1000));

type Env = ReturnType<typeof env>;

/** The Redis counters when REDIS_URL is set (connected at first use), and their errors logged at most once a minute. */
const redisConnection = (strapi: Strapi) => {
  let redis: RedisCounters | null | undefined;
  let warnedAt = 0;
  const redisError = (error: Error) => {
    // Reconnection attempts repeat the same error: once a minute is enough.
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    strapi.log.warn(`[rate-limit] Redis unavailable, counting in the database meanwhile: ${error.message}`);
  };
  const shared = (): RedisCounters | null => {
    if (redis === undefined) {
      const e = env();
      redis = e.REDIS_URL ? redisCounters(e.REDIS_URL, `${e.REDIS_KEY_PREFIX}rl:`, redisError) : null;
    }
    return redis;
  };
  return {
    shared,
    /** The Redis answer, or undefined when Redis failed (the caller then uses the database). */
    viaRedis: async <T>(work: (r: RedisCounters) => Promise<T>): Promise<T | undefined> => {
      const r = shared();
      if (!r) return undefined;
      try {
        return await work(r);
      } catch (error) {
        redisError(error as Error);
        return undefined;
      }
    },
    close: async (): Promise<void> => {
      if (redis) await redis.close();
      redis = undefined;
    },
  };
};

type RedisConnection = ReturnType<typeof redisConnection>;

/** The hits a window allows for a budget (auth counts per IP and per account). */
const budgetMax = (e: Env, kind: 'ip' | 'account', budget: RateBudget): number =>
  budget === 'upload'
    ? e.UPLOAD_RATE_LIMIT_MAX
    : budget === 'edit'
      ? e.EDIT_RATE_LIMIT_MAX
      : budget === 'integrator'
        ? e.INTEGRATOR_RATE_LIMIT_MAX
        : kind === 'ip'
          ? e.RATE_LIMIT_IP_MAX
          : e.RATE_LIMIT_ACCOUNT_MAX;

/** Counts `amount` hits in the database: one atomic upsert; a window that has run out starts again here. */
const hitInDatabase = async (strapi: Strapi, bucket: string, max: number, windowMs: number, amount = 1): Promise<RateVerdict> => {
  const now = Date.now();
  const table = 'branchify_rate_limits';
  const stamp = new Date(now);
  const live = `${table}.window_start > ?`;
  const result: unknown = await strapi.db.connection.raw(
    `INSERT INTO ${table} (bucket, window_start, hits, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (bucket) DO UPDATE SET
       hits = CASE WHEN ${live} THEN ${table}.hits + excluded.hits ELSE excluded.hits END,
       window_start = CASE WHEN ${live} THEN ${table}.window_start ELSE excluded.window_start END,
       updated_at = excluded.updated_at
     RETURNING hits, window_start`,
    [bucket, now, amount, stamp, stamp, now - windowMs, now - windowMs],
  );
  const rows = rawRows<Pick<RateLimitRow, 'hits' | 'window_start'>>(result);
  const hits = Number(rows[0]?.hits ?? amount);
  const opened = Number(rows[0]?.window_start ?? now);
  return { allowed: hits <= max, hits, retryAfterSeconds: retryAfter(opened, windowMs, now) };
};

/**
 * Counts a hit. A window opens at a key's first hit and lasts RATE_LIMIT_WINDOW_SECONDS (not
 * aligned to the clock), so a burst cannot straddle a boundary to get twice the budget.
 */
const hit = async (strapi: Strapi, redis: RedisConnection, key: string, kind: 'ip' | 'account', budget: RateBudget = 'auth'): Promise<RateVerdict> => {
  const e = env();
  if (budget === 'ingest') return hitInMemory(key, e.INGEST_RATE_LIMIT_IP_MAX, e.RATE_LIMIT_WINDOW_SECONDS * 1000, Date.now());
  const windowMs = e.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const max = budgetMax(e, kind, budget);
  const bucket = key.slice(0, 255);
  const counted = await redis.viaRedis((r) => r.hit(bucket, windowMs));
  if (counted) return { allowed: counted.hits <= max, hits: counted.hits, retryAfterSeconds: Math.max(1, Math.ceil(counted.leftMs / 1000)) };
  return hitInDatabase(strapi, bucket, max, windowMs);
};

/**
 * Spends up to `amount` of a budget of `max` per window (RATE_LIMIT_WINDOW_SECONDS, opened at the
 * key's first use) on a key, shared like every other counter; answers how many of them fit (the
 * first ones asked for win, and two processes never both get the last).
 */
const spend = async (strapi: Strapi, redis: RedisConnection, key: string, amount: number, max: number): Promise<number> => {
  if (amount <= 0) return 0;
  const windowMs = env().RATE_LIMIT_WINDOW_SECONDS * 1000;
  const bucket = key.slice(0, 255);
  const counted = await redis.viaRedis((r) => r.hit(bucket, windowMs, amount));
  const hits = counted ? counted.hits : (await hitInDatabase(strapi, bucket, max, windowMs, amount)).hits;
  return Math.max(0, Math.min(amount, max - (hits - amount)));
};

const clear = async (strapi: Strapi, redis: RedisConnection, key: string): Promise<void> => {
  const bucket = key.slice(0, 255);
  await redis.viaRedis((r) => r.clear(bucket));
  await strapi.db.connection('branchify_rate_limits').where({ bucket }).delete();
};

/** Drops counters of windows long gone (called from the periodic clean-up; Redis keys expire). */
const prune = async (strapi: Strapi): Promise<void> => {
  const cutoff = Date.now() - env().RATE_LIMIT_WINDOW_SECONDS * 1000 * 2;
  await strapi.db.connection('branchify_rate_limits').where('window_start', '<', cutoff).delete();
};

/** Connects to Redis (when configured) before the first request, for up to `timeoutMs`. */
const ready = async (redis: RedisConnection, timeoutMs = 5000): Promise<void> => {
  const r = redis.shared();
  if (!r) return;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      return await r.ping();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
};

/**
 * Counters shared by N app nodes: in Redis when REDIS_URL is set (one atomic INCR per hit, keys
 * expiring with their window), else in the database (one atomic upsert per hit; a window that has
 * run out starts again at the next hit). While Redis cannot be reached the database counts.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const redis = redisConnection(strapi);
  return {
    hit: (key: string, kind: 'ip' | 'account', budget?: RateBudget) => hit(strapi, redis, key, kind, budget),
    spend: (key: string, amount: number, max: number) => spend(strapi, redis, key, amount, max),
    clear: (key: string) => clear(strapi, redis, key),
    prune: () => prune(strapi),
    ready: (timeoutMs?: number) => ready(redis, timeoutMs),
    close: redis.close,
  };
};
