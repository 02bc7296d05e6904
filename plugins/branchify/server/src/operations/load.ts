import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { offload } from '../offload/pool';

/** The event loop's delay is sampled every this many milliseconds. */
const RESOLUTION_MS = 10;

let histogram: IntervalHistogram | null = null;
let since = new Date();

const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;

/**
 * This process's load as an operator reads it: how late the event loop ran (every request waits
 * that long), memory, and the worker threads' queue. Measured since the last reset.
 */
export const processLoad = {
  start(): void {
    if (histogram) return;
    histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    since = new Date();
  },
  stop(): void {
    histogram?.disable();
    histogram = null;
  },
  reset(): void {
    histogram?.reset();
    since = new Date();
  },
  read() {
    const h = histogram;
    const memory = process.memoryUsage();
    return {
      since: since.toISOString(),
      pid: process.pid,
      event_loop_delay_ms: h && h.count > 0 ? { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), samples: h.count } : null,
      memory_mb: { rss: Math.round(memory.rss / 2 ** 20), heap_used: Math.round(memory.heapUsed / 2 ** 20), external: Math.round(memory.external / 2 ** 20) },
      workers: offload.stats(),
    };
  },
};
