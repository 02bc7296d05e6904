/**
 * A background worker over a database queue: `kick` runs passes soon, a timer kicks it every
 * interval, concurrent kicks in one process share one run, and a pass that says more is due is
 * followed by another. `stop` ends the timer and waits for the running pass.
 */
export class WorkerLoop {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private draining: Promise<void> | null = null;
  private again = false;

  constructor(
    /** One pass; answers true when more is due at once. It should end early once `isStopped()`. */
    private readonly pass: (isStopped: () => boolean) => Promise<boolean>,
    private readonly onError: (error: Error) => void,
  ) {}

  readonly isStopped = (): boolean => this.stopped;

  kick(): void {
    if (this.stopped) return;
    setImmediate(() => {
      // A kick scheduled just before `stop` must not run a pass after it (the database may be closed).
      if (!this.stopped) this.drain().catch(this.onError);
    });
  }

  /** Runs passes until nothing due is left. */
  drain(): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      try {
        do {
          this.again = false;
          if (await this.pass(this.isStopped)) this.again = true;
        } while (this.again && !this.stopped);
      } finally {
        this.draining = null;
      }
    })();
    return this.draining;
  }

  start(intervalMs: number): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.draining?.catch(() => undefined);
  }
}
