import { createSemaphore, SemaphoreFull } from '../../plugins/branchify/server/src/utils/semaphore';

/** A piece of work that finishes when the test says so. */
const deferred = () => {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
};
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createSemaphore', () => {
  it('runs at most `slots` at once, queues the next in arrival order, and refuses past the queue', async () => {
    const gate = createSemaphore(2, 2);
    const started: number[] = [];
    const works = [0, 1, 2, 3].map(() => deferred());
    const runs = works.map((w, i) =>
      gate.run(async () => {
        started.push(i);
        await w.done;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(gate.load).toEqual({ active: 2, waiting: 2 });
    await expect(gate.run(async () => 'late')).rejects.toBeInstanceOf(SemaphoreFull);

    works[1]!.finish();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    works[0]!.finish();
    works[2]!.finish();
    works[3]!.finish();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('frees the slot when the work fails', async () => {
    const gate = createSemaphore(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    expect(await gate.run(async () => 'next')).toBe('next');
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });
});
