import { env } from '@branchify/config';
import type { Strapi } from '../utils/strapi';

export interface RateVerdict {
  allowed: boolean;
  hits: number;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters in the database (not in process memory), so N app nodes share one limit.
 * One atomic upsert per hit: a new window resets the count.
 */
/**
 * The player's event ingest is limited per node, in memory: it is flood protection for a hot
 * path (a database write per event request would halve ingest), not a security boundary, and
 * N nodes simply allow N times the budget.
 */
const ingestWindows = new Map<string, { windowStart: number; hits: number }>();
const hitInMemory = (key: string, max: number, windowMs: number, now: number): RateVerdict => {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  let entry = ingestWindows.get(key);
  if (!entry || entry.windowStart !== windowStart) {
    if (ingestWindows.size > 100_000) ingestWindows.clear();
    entry = { windowStart, hits: 0 };
    ingestWindows.set(key, entry);
  }
  entry.hits += 1;
  return { allowed: entry.hits <= max, hits: entry.hits, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
};

export default ({ strapi }: { strapi: Strapi }) => ({
  async hit(key: string, kind: 'ip' | 'account', budget: 'auth' | 'ingest' = 'auth'): Promise<RateVerdict> {
    const e = env();
    if (budget === 'ingest') return hitInMemory(key, e.INGEST_RATE_LIMIT_IP_MAX, e.RATE_LIMIT_WINDOW_SECONDS * 1000, Date.now());
    const windowMs = e.RATE_LIMIT_WINDOW_SECONDS * 1000;
    const now = Date.now();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const max = kind === 'ip' ? e.RATE_LIMIT_IP_MAX : e.RATE_LIMIT_ACCOUNT_MAX;
    const table = 'branchify_rate_limits';
    const bucket = key.slice(0, 255);
    const stamp = new Date(now);
    const result = await strapi.db.connection.raw(
      `INSERT INTO ${table} (bucket, window_start, hits, created_at, updated_at) VALUES (?, ?, 1, ?, ?)
       ON CONFLICT (bucket) DO UPDATE SET
         hits = CASE WHEN ${table}.window_start = excluded.window_start THEN ${table}.hits + 1 ELSE 1 END,
         window_start = excluded.window_start,
         updated_at = excluded.updated_at
       RETURNING hits`,
      [bucket, windowStart, stamp, stamp],
    );
    const rows: Array<{ hits: number | string }> = Array.isArray(result) ? result : result.rows;
    const hits = Number(rows[0]?.hits ?? 1);
    return {
      allowed: hits <= max,
      hits,
      retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
    };
  },

  /** Drops counters of windows long gone (called from the periodic clean-up). */
  async prune(): Promise<void> {
    const cutoff = Date.now() - env().RATE_LIMIT_WINDOW_SECONDS * 1000 * 2;
    await strapi.db.connection('branchify_rate_limits').where('window_start', '<', cutoff).delete();
  },
});
