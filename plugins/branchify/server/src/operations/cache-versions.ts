import { rawRows, type Strapi } from '../utils/strapi';
import type { CacheVersionRow } from '../content-types/cache-version';
import { durableTransaction } from '../utils/durable-transaction';

const TABLE = 'branchify_cache_versions';

type CacheScope = 'player';

/**
 * Version numbers, one per cache scope, kept in the database so every app process sees a change
 * made through any other: a write bumps its scope once it has committed (operations/cache-triggers.ts),
 * and a process drops its cached copies when it reads a number other than the last.
 */
export default ({ strapi }: { strapi: Strapi }) => ({
  /** Adds one to the scope's number; the new number. */
  async bump(scope: CacheScope): Promise<number> {
    const now = new Date();
    return durableTransaction(strapi, async ({ trx }) => {
      const result: unknown = await trx.raw(
        `INSERT INTO ${TABLE} (scope, version, created_at, updated_at) VALUES (?, 1, ?, ?)
         ON CONFLICT (scope) DO UPDATE SET version = ${TABLE}.version + 1, updated_at = excluded.updated_at
         RETURNING version`,
        [scope, now, now],
      );
      const rows = rawRows<Pick<CacheVersionRow, 'version'>>(result);
      return Number(rows[0]?.version ?? 0);
    });
  },

  /** The scope's current number (0 before its first bump): one read on the unique index. */
  async read(scope: CacheScope): Promise<number> {
    const row = await strapi.db.connection<CacheVersionRow>(TABLE).where({ scope }).first('version');
    return Number(row?.version ?? 0);
  },
});

/**
 * Calls `onChange` when the scope's number has moved since the last look, looking at most every
 * `intervalMs` (concurrent callers share one read). A failed read (the database is down) keeps
 * what is cached and looks again on the next call.
 */
export const versionWatch = (read: () => Promise<number>, intervalMs: () => number, onChange: () => void) => {
  let known: number | null = null;
  let checkedAt = 0;
  let pending: Promise<void> | null = null;
  return {
    async check(): Promise<void> {
      if (Date.now() - checkedAt < intervalMs()) return;
      pending ??= read()
        .then((version) => {
          checkedAt = Date.now();
          if (known !== null && version !== known) onChange();
          known = version;
        })
        .catch(() => undefined)
        .finally(() => {
          pending = null;
        });
      await pending;
    },
    /**
     * This process moved the number to `version` (and dropped its copies when its write
     * committed): taken as known when it is the next number, so no later check drops the copies
     * made since; otherwise (another process moved it too) the next check reads it.
     */
    adopt(version: number): void {
      if (known !== null && version === known + 1) known = version;
      else checkedAt = 0;
    },
  };
};
