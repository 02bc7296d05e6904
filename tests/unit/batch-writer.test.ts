import { BatchWriter } from '../../plugins/branchify/server/src/analytics/batch-writer';

const deferred = () => {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
};

describe('BatchWriter', () => {
  it('acknowledges only after the rows are written, and gathers rows that arrive meanwhile', async () => {
    const writes: number[][] = [];
    const gate = deferred();
    let first = true;
    const writer = new BatchWriter<number>(
      async (rows) => {
        writes.push(rows);
        if (first) {
          first = false;
          await gate.done;
        }
      },
      { maxRows: 500, maxWaitMs: 250 },
    );

    let acked = false;
    const a = writer.add([1]).then(() => (acked = true));
    const rest = Promise.all([writer.add([2]), writer.add([3, 4])]);
    await new Promise((r) => setImmediate(r));
    expect(acked).toBe(false); // the first INSERT has not finished
    gate.release();
    await a;
    await rest;
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it('never writes more than maxRows at once', async () => {
    const sizes: number[] = [];
    const writer = new BatchWriter<number>(async (rows) => void sizes.push(rows.length), { maxRows: 3, maxWaitMs: 250 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => writer.add([i])));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
  });

  it('rejects every caller of a failed write and goes on with the next batch', async () => {
    let fail = true;
    const written: number[] = [];
    const writer = new BatchWriter<number>(async (rows) => {
      if (fail) {
        fail = false;
        throw new Error('disk full');
      }
      written.push(...rows);
    });
    await expect(writer.add([1])).rejects.toThrow('disk full');
    await writer.add([2]);
    await writer.drain();
    expect(written).toEqual([2]);
  });
});
