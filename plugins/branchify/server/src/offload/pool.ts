import os from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@branchify/shared';
import Piscina from 'piscina';
import { serviceUnavailable, unprocessable } from '../http/errors';
import type { FunnelSaveResult, OffloadTask, ReadExportResult } from './tasks';

/**
 * Worker threads for work whose cost the caller controls (parsing and checking documents and
 * files), so a request never holds the event loop that every other request needs.
 */

/** One thread per core beyond the one serving requests (at least one, at most four). */
const THREADS = Math.max(1, Math.min(4, os.availableParallelism() - 1));
/** Tasks that may wait for a thread; past that a request is refused as busy (503, Retry-After). */
const MAX_QUEUE = 64;
/** A task's time limit: past it the thread is stopped and the request refused. */
const TASK_TIMEOUT_MS = 30_000;
/** A thread's heap: a file at the import's size limit, parsed, fits several times over. */
const THREAD_HEAP_MB = 512;
const RETRY_AFTER_SECONDS = 2;

let pool: Piscina<OffloadTask, ReadExportResult | FunnelSaveResult> | null = null;

const threads = () =>
  (pool ??= new Piscina({
    filename: path.join(__dirname, 'tasks.js'),
    minThreads: 0,
    maxThreads: THREADS,
    maxQueue: MAX_QUEUE,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
  }));

const isQueueFull = (error: unknown) => /queue is at limit/i.test((error as Error).message ?? '');
const isAbort = (error: unknown) => (error as Error).name === 'AbortError' || /aborted/i.test((error as Error).message ?? '');
const isOutOfMemory = (error: unknown) => (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';

/**
 * Runs one task on a worker thread within its time limit. A full queue is a 503 with Retry-After;
 * a task past its time or memory limit is a 422 on `field` (the input is what made it so).
 */
const run = async <R>(task: OffloadTask, field: string): Promise<R> => {
  try {
    return (await threads().run(task, { signal: AbortSignal.timeout(TASK_TIMEOUT_MS) })) as R;
  } catch (error) {
    if (isQueueFull(error)) throw serviceUnavailable(MESSAGES.serviceUnavailable, RETRY_AFTER_SECONDS);
    if (isAbort(error) || isOutOfMemory(error)) throw unprocessable(MESSAGES.tooComplexToCheck, { [field]: [MESSAGES.tooComplexToCheck] });
    throw error;
  }
};

/**
 * Lets every other request have a turn before going on: a request whose steps never wait on I/O
 * (SQLite answers synchronously) would otherwise run all of them in one go.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export const offload = {
  /** Reads an export file (an uploaded file's path, or a JSON body's text); the images it shows go into `imagesDir`. */
  readExport: (input: { file: string } | { text: string }, imagesDir: string, field: string) =>
    run<ReadExportResult>({ kind: 'read-export', ...input, imagesDir }, field),
  /** Parses and checks a funnel save's JSON text. */
  funnelSave: (text: string) => run<FunnelSaveResult>({ kind: 'funnel-save', text }, '_'),
  /** What the pool is doing, for the operations endpoint. */
  stats: () => ({ threads: pool?.threads.length ?? 0, max_threads: THREADS, queued: pool?.queueSize ?? 0, completed: pool?.completed ?? 0 }),
  close: async (): Promise<void> => {
    const closing = pool;
    pool = null;
    if (closing) await closing.close({ force: true });
  },
};
