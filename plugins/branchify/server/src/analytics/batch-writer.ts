/**
 * Group commit for append-only events: rows wait at most `maxWaitMs`, at
 * most `maxRows` go in one INSERT, and while one INSERT runs the next batch gathers. `add`
 * resolves only once its rows are committed, so a caller acknowledges only what is durably
 * stored; a failed INSERT rejects every caller in that batch (and they answer 5xx, the client
 * retries, and the event ids make the retry idempotent).
 */
export interface BatchWriterOptions {
  maxRows: number;
  maxWaitMs: number;
}

interface Pending<Row> {
  rows: Row[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class BatchWriter<Row> {
  private queue: Array<Pending<Row>> = [];
  private queuedRows = 0;
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: (rows: Row[]) => Promise<void>,
    private readonly options: BatchWriterOptions = { maxRows: 500, maxWaitMs: 250 },
  ) {}

  add(rows: Row[]): Promise<void> {
    if (!rows.length) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
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
    if (this.queuedRows >= this.options.maxRows || !this.timer) {
      // Nothing in flight: write now rather than wait; the wait bound only matters under load.
      void this.flush();
    }
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
    const batch = this.take();
    if (!batch.length) return Promise.resolve();
    this.flushing = (async () => {
      try {
        await this.write(batch.flatMap((p) => p.rows));
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
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
}
