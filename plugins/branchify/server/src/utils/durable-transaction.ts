import type { Strapi, Transaction, TransactionParams } from './strapi';

/** Work started after a transaction committed, per transaction and key: the outermost owner awaits it. */
const afterCommitWork = new WeakMap<Transaction, Map<string, Promise<void>>>();

/**
 * `strapi.db.transaction`, except that it fails when the COMMIT fails. Strapi awaits knex's
 * `trx.commit()`, which resolves even when the database refused the COMMIT (a connection cut by a
 * restart, a deferred constraint): only the transaction's `executionPromise` says so. A caller
 * that acknowledges a write must not acknowledge one the database rolled back. Work registered
 * with `afterCommit` has finished when it returns.
 */
export const durableTransaction = async <T>(strapi: Strapi, work: (params: TransactionParams) => Promise<T>): Promise<T> => {
  // Nested: the outermost transaction's owner answers for the commit.
  const outermost = !strapi.db.inTransaction();
  let settled: Promise<unknown> | undefined;
  let trx: Transaction | undefined;
  const result: T = await strapi.db.transaction(async (params: TransactionParams) => {
    if (outermost) {
      settled = params.trx.executionPromise;
      trx = params.trx;
    }
    return work(params);
  });
  if (settled) await settled;
  const started = trx && afterCommitWork.get(trx);
  if (started) await Promise.all(started.values());
  return result;
};

/**
 * Runs `work` once the outermost transaction has committed (now when there is none), once per
 * `key` however many writes in that transaction ask. For work that takes a lock every writer
 * shares (a counter row): taken inside a transaction, it would be held while the transaction
 * waits for other rows, and two such transactions deadlock. Failures are logged, never thrown:
 * the write has committed by then.
 */
export const afterCommit = async (strapi: Strapi, key: string, work: () => Promise<void>): Promise<void> => {
  const run = () =>
    work().catch((error: unknown) => {
      strapi.log.warn(`[db] work after commit (${key}) failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  if (!strapi.db.inTransaction()) return run();
  await strapi.db.transaction(({ trx, onCommit }: TransactionParams) => {
    const keys = afterCommitWork.get(trx) ?? new Map<string, Promise<void>>();
    afterCommitWork.set(trx, keys);
    if (keys.has(key)) return Promise.resolve();
    // A placeholder until the commit starts the work (a rollback never does).
    keys.set(key, Promise.resolve());
    onCommit(() => keys.set(key, run()));
    return Promise.resolve();
  });
};
