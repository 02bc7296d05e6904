/**
 * Group commit for append-only events: rows wait at most `maxWaitMs`, at
 * most `maxRows` go in one INSERT, and while one INSERT runs the next batch gathers. `add`
 * resolves only once its rows are committed, so a caller acknowledges only what is durably
 * stored. A failed INSERT rejects every caller in that batch (they answer 5xx, the client
 * retries, and the event ids make the retry idempotent), except when the database refused it
 * because of a row (`isRowError`: a value it will never take): then each row is written alone,
 * the rows it refuses again are dropped and counted (`onDropped`), and every other caller
 * resolves — one bad event never takes the others down.
 */
export interface BatchWriterOptions<Row = unknown> {
  maxRows: number;
  maxWaitMs: number;
  /** The database refused the write because of what a row holds (retrying that row will not help). */
  isRowError?: (error: unknown) => boolean;
  onDropped?: (row: Row, error: unknown) => void;
}

interface Pending<Row> {
  rows: Row[];
  resolve: (stored: Row[]) => void;
  reject: (error: unknown) => void;
}

/** Writes rows; answers the ones it stored (nothing: all of them). */
export type BatchWrite<Row> = (rows: Row[]) => Promise<Iterable<Row> | void>;

export class BatchWriter<Row> {
  private queue: Array<Pending<Row>> = [];
  private queuedRows = 0;
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Immediate | null = null;

  constructor(
    private readonly write: BatchWrite<Row>,
    private readonly options: BatchWriterOptions<Row> = { maxRows: 500, maxWaitMs: 250 },
  ) {}

  /** Resolves, once committed, with the rows of this call that were stored. */
  add(rows: Row[]): Promise<Row[]> {
    if (!rows.length) return Promise.resolve([]);
    return new Promise<Row[]>((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      this.queuedRows += rows.length;
      this.schedule();
    });
  }

  /** Writes whatever is queued now (used on shutdown). */
  async drain(): Promise<void> {
    while (this.flushing || this.queue.length) {
      if (this.flushing) await this.flushing.catch(() => undefined);
      else await this.flush();
    }
  }

  private schedule(): void {
    if (this.flushing) return; // the running flush picks the queue up when it ends
    if (this.queuedRows >= this.options.maxRows) {
      void this.flush();
      return;
    }
    // Nothing in flight: write once this turn of the event loop has read every request that has
    // arrived, not at the first. A synchronous driver (SQLite) holds the loop while it writes, so
    // requests arrive in bursts; writing at the first of each burst made one batch per request.
    if (!this.timer && !this.soon) this.soon = setImmediate(() => void this.flush());
  }

  private take(): Array<Pending<Row>> {
    const batch: Array<Pending<Row>> = [];
    let count = 0;
    while (this.queue.length && (count === 0 || count + this.queue[0]!.rows.length <= this.options.maxRows)) {
      const next = this.queue.shift()!;
      count += next.rows.length;
      batch.push(next);
    }
    this.queuedRows -= count;
    return batch;
  }

  private flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.soon) {
      clearImmediate(this.soon);
      this.soon = null;
    }
    const batch = this.take();
    if (!batch.length) return Promise.resolve();
    this.flushing = (async () => {
      try {
        const rows = batch.flatMap((p) => p.rows);
        const stored = this.stored(rows, await this.write(rows));
        for (const p of batch) p.resolve(p.rows.filter((r) => stored.has(r)));
      } catch (error) {
        if (this.options.isRowError?.(error)) await this.rowByRow(batch);
        else for (const p of batch) p.reject(error);
      } finally {
        this.flushing = null;
        if (this.queue.length) {
          if (this.queuedRows >= this.options.maxRows) void this.flush();
          else this.timer = setTimeout(() => void this.flush(), Math.min(this.options.maxWaitMs, 5));
        }
      }
    })();
    return this.flushing;
  }

  private stored(rows: Row[], written: Iterable<Row> | void): Set<Row> {
    return new Set(written ?? rows);
  }

  /**
   * Each row alone: a row the database refuses again is dropped. Any other failure (the database
   * went away) rejects that caller and every one not written yet, as a failed batch does.
   */
  private async rowByRow(batch: Array<Pending<Row>>): Promise<void> {
    for (const [index, p] of batch.entries()) {
      const kept: Row[] = [];
      try {
        for (const row of p.rows) {
          try {
            if (this.stored([row], await this.write([row])).has(row)) kept.push(row);
          } catch (error) {
            if (!this.options.isRowError?.(error)) throw error;
            this.options.onDropped?.(row, error);
          }
        }
      } catch (error) {
        for (const rest of batch.slice(index)) rest.reject(error);
        return;
      }
      p.resolve(kept);
    }
  }
}
