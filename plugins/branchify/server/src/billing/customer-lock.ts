import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClusterLock } from './cluster-lock';

/*
 * The billing lock: one Stripe customer's (or one user's) billing changes one at a time. Queued in
 * this process; on PostgreSQL also held across processes through billing/cluster-lock.ts.
 */

const chains = new Map<string, Promise<unknown>>();
/** The lock keys the current async flow already holds, so a holder may take its own lock again. */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

let clusterLock: ClusterLock | null = null;
/** Every process on the database takes this lock too (PostgreSQL); SQLite has one process. */
export const shareLocksAcrossProcesses = async (lock: ClusterLock | null) => {
  const previous = clusterLock;
  clusterLock = lock;
  await previous?.close();
};

const underClusterLock = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
  const lock = clusterLock;
  if (!lock) return work();
  const release = await lock.acquire(key);
  try {
    return await work();
  } finally {
    await release();
  }
};

/**
 * Runs work for one key (a Stripe customer, a user's billing) one at a time (webhooks and API
 * calls alike): queued in this process, and under the cluster lock across processes.
 * Re-entrant: work already holding `key` runs at once.
 */
export const serialised = <T>(key: string, work: () => Promise<T>): Promise<T> => {
  const mine = held.getStore();
  if (mine?.has(key)) return work();
  const previous = chains.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => held.run(new Set([...(mine ?? []), key]), () => underClusterLock(key, work)));
  chains.set(key, next);
  // Clean up on either outcome; the caller handles `next`'s rejection, so this branch must not
  // leave one of its own behind (an unhandled rejection).
  const forget = () => {
    if (chains.get(key) === next) chains.delete(key);
  };
  next.then(forget, forget);
  return next;
};
