import { WorkerLoop } from '../../plugins/branchify/server/src/utils/worker-loop';

/** Resolves once the event loop has run the callbacks queued so far (kicks use setImmediate). */
const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe('WorkerLoop', () => {
  it('runs passes until one says nothing more is due', async () => {
    const due = [true, true, false];
    let passes = 0;
    const loop = new WorkerLoop(async () => {
      passes += 1;
      return due.shift() ?? false;
    }, fail);
    await loop.drain();
    expect(passes).toBe(3);
    await loop.stop();
  });

  it('lets kicks that arrive during a pass share it, with one more pass after', async () => {
    let release: () => void = () => undefined;
    let passes = 0;
    const loop = new WorkerLoop(async () => {
      passes += 1;
      if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
      return false;
    }, fail);
    const first = loop.drain();
    loop.kick();
    loop.kick();
    await settle();
    release();
    await first;
    expect(passes).toBe(2);
    await loop.stop();
  });

  it('never runs a pass after stop, even for a kick made just before it', async () => {
    let passes = 0;
    const loop = new WorkerLoop(async () => {
      passes += 1;
      return false;
    }, fail);
    loop.kick();
    await loop.stop();
    await settle();
    loop.kick();
    await settle();
    expect(passes).toBe(0);
  });

  it('waits for the running pass when stopped, and reports a failed pass', async () => {
    const errors: string[] = [];
    let finished = false;
    const loop = new WorkerLoop(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        finished = true;
        throw new Error('database gone');
      },
      (error) => errors.push(error.message),
    );
    loop.kick();
    await settle();
    await loop.stop();
    expect(finished).toBe(true);
    await settle();
    expect(errors).toEqual(['database gone']);
  });
});

function fail(error: Error): void {
  throw error;
}
