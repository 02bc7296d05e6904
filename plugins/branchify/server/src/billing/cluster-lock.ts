import { MESSAGES } from '@branchify/shared';
import type { Knex } from 'knex';
import { AppError } from '../http/errors';
import { isDatabaseUnavailable } from '../operations/database';
import { connectionPool } from '../utils/strapi';

/** A lock shared by every app process on one database (billing/customer-lock.ts holds it around one customer's billing work): acquire returns its release. */
export interface ClusterLock {
  acquire(key: string): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

interface LockConnection {
  query(sql: string, params: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** A lock another process kept longer than the wait allows: try again shortly. */
export class LockTimeout extends AppError {
  constructor(
    readonly key: string,
    waitedMs: number,
  ) {
    super(503, MESSAGES.serviceUnavailable, undefined, { 'Retry-After': '5' });
    this.detail = `billing lock not had after ${waitedMs} ms`;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MAX_WAIT_MS = 100;

/**
 * PostgreSQL advisory locks on one connection this process keeps for them. Taking a lock only
 * ever tries (`pg_try_advisory_lock`) and waits between tries, so the connection is never stuck
 * in a wait and can always release the locks it holds; its queries run one at a time. Keys are
 * namespaced (the schema), so installs sharing a database never contend. A lock not had within
 * `maxWaitMs` is a 503: PostgreSQL cannot see a deadlock through tries, so a wait must end.
 */
export const postgresClusterLock = (knex: Knex, namespace: string, maxWaitMs: number): ClusterLock => {
  const pool = connectionPool<LockConnection>(knex);
  let connection: Promise<LockConnection> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const run = <T>(sql: string, key: string, read: (row: Record<string, unknown>) => T): Promise<T> => {
    const next = queue.then(async () => {
      connection ??= pool.acquireConnection();
      const current = connection;
      let open: LockConnection;
      try {
        open = await current;
      } catch (error) {
        if (connection === current) connection = null;
        throw error;
      }
      try {
        const { rows } = await open.query(sql, [`${namespace}:${key}`]);
        return read(rows[0] ?? {});
      } catch (error) {
        // A lost connection (the database restarted) lost its locks too: the next query takes a
        // fresh one, and the pool disposes of the dead one.
        if (isDatabaseUnavailable(error) && connection === current) {
          connection = null;
          await Promise.resolve(pool.releaseConnection(open)).catch(() => undefined);
        }
        throw error;
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    async acquire(key) {
      const deadline = Date.now() + maxWaitMs;
      for (let wait = 2; ; wait = Math.min(wait * 2, MAX_WAIT_MS)) {
        if (await run('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', key, (r) => r.ok === true)) break;
        if (Date.now() >= deadline) throw new LockTimeout(key, maxWaitMs);
        await sleep(wait);
      }
      return async () => {
        await run('SELECT pg_advisory_unlock(hashtext($1)) AS ok', key, () => undefined);
      };
    },
    async close() {
      await queue;
      if (connection) await pool.releaseConnection(await connection);
      connection = null;
    },
  };
};
