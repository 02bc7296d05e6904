import type { Strapi, TransactionParams } from './strapi';

/**
 * `strapi.db.transaction`, except that it fails when the COMMIT fails. Strapi awaits knex's
 * `trx.commit()`, which resolves even when the database refused the COMMIT (a connection cut by a
 * restart, a deferred constraint): only the transaction's `executionPromise` says so. A caller
 * that acknowledges a write must not acknowledge one the database rolled back.
 */
export const durableTransaction = async <T>(strapi: Strapi, work: (params: TransactionParams) => Promise<T>): Promise<T> => {
  // Nested: the outermost transaction's owner answers for the commit.
  const outermost = !strapi.db.inTransaction();
  let settled: Promise<unknown> | undefined;
  const result: T = await strapi.db.transaction(async (params: TransactionParams) => {
    if (outermost) settled = params.trx.executionPromise;
    return work(params);
  });
  if (settled) await settled;
  return result;
};
