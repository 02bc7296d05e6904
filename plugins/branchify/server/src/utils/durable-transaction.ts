import type { Strapi, Transaction } from './strapi';

type Callback<T> = Parameters<Strapi['db']['transaction']>[0] extends infer C
  ? C extends (params: infer P) => unknown
    ? (params: P) => Promise<T>
    : never
  : never;

/**
 * `strapi.db.transaction`, except that it fails when the COMMIT fails. Strapi awaits knex's
 * `trx.commit()`, which resolves even when the database refused the COMMIT (a connection cut by a
 * restart, a deferred constraint): only the transaction's `executionPromise` says so. A caller
 * that acknowledges a write must not acknowledge one the database rolled back.
 */
export const durableTransaction = async <T>(strapi: Strapi, work: Callback<T>): Promise<T> => {
  // Nested: the outermost transaction's owner answers for the commit.
  const outermost = !strapi.db.inTransaction();
  let settled: Promise<unknown> | undefined;
  const result = await strapi.db.transaction(async (params) => {
    if (outermost) settled = (params.trx as Transaction & { executionPromise?: Promise<unknown> }).executionPromise;
    return work(params);
  });
  if (settled) await settled;
  return result as T;
};
