import Redis from 'ioredis';

export interface RedisCounters {
  /** Counts `amount` hits (1 unless told) in a window that opens at the key's first hit: the count and the ms left. */
  hit(key: string, windowMs: number, amount?: number): Promise<{ hits: number; leftMs: number }>;
  clear(key: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// INCRBY, and the window's expiry set by the hit that opened it; one round trip, atomic.
const HIT = `local hits = redis.call('INCRBY', KEYS[1], ARGV[2])
if hits == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); left = tonumber(ARGV[1]) end
return {hits, left}`;

/**
 * Rate-limit counters in Redis, shared by every app process: one key per bucket that expires with
 * its window. Commands fail at once while Redis is unreachable (no offline queue), so the caller
 * can count in the database meanwhile instead of holding the request.
 */
export const redisCounters = (url: string, prefix: string, onError: (error: Error) => void): RedisCounters => {
  const client = new Redis(url, { keyPrefix: prefix, enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  client.on('error', onError);
  return {
    async hit(key, windowMs, amount = 1) {
      const [hits, leftMs] = (await client.eval(HIT, 1, key, String(windowMs), String(amount))) as [number, number];
      return { hits: Number(hits), leftMs: Number(leftMs) };
    },
    async clear(key) {
      await client.del(key);
    },
    async ping() {
      await client.ping();
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
};
