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
    await new Promise((r) => setImmediate(r)); // the first write starts
    const rest = Promise.all([writer.add([2]), writer.add([3, 4])]);
    await new Promise((r) => setImmediate(r));
    expect(acked).toBe(false); // the first INSERT has not finished
    gate.release();
    await a;
    await rest;
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it('writes rows added in one turn of the event loop together, as requests read in one burst', async () => {
    const writes: number[][] = [];
    const writer = new BatchWriter<number>(async (rows) => void writes.push(rows), { maxRows: 500, maxWaitMs: 250 });
    await Promise.all([writer.add([1]), writer.add([2, 3]), writer.add([4])]);
    expect(writes).toEqual([[1, 2, 3, 4]]);
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

  it('writes a batch the database refused because of its rows one row at a time: the refused row is dropped and counted, every other caller resolves', async () => {
    const gate = deferred();
    const writes: number[][] = [];
    const dropped: number[] = [];
    const tooLong = (rows: number[]) => rows.some((r) => r >= 100);
    const writer = new BatchWriter<number>(
      async (rows) => {
        writes.push(rows);
        if (rows[0] === 0) await gate.done;
        if (tooLong(rows)) throw Object.assign(new Error('value too long for type character varying(255)'), { code: '22001' });
      },
      { maxRows: 500, maxWaitMs: 250, isRowError: (error) => (error as { code?: string }).code === '22001', onDropped: (row) => dropped.push(row) },
    );
    const first = writer.add([0]);
    await new Promise((r) => setImmediate(r)); // the first write starts
    // These gather while the first INSERT runs, and go in one batch that the bad row fails.
    const callers = [writer.add([1, 2]), writer.add([100]), writer.add([3, 101, 4])];
    gate.release();
    await first;
    expect(await Promise.all(callers)).toEqual([[1, 2], [], [3, 4]]);
    expect(dropped).toEqual([100, 101]);
    expect(writes[1]).toEqual([1, 2, 100, 3, 101, 4]);
    expect(writes.slice(2)).toEqual([[1], [2], [100], [3], [101], [4]]);
  });

  it('rejects every caller, without retrying row by row, when the failure is not the rows’ (the database is down)', async () => {
    const gate = deferred();
    let calls = 0;
    const writer = new BatchWriter<number>(
      async (rows) => {
        calls += 1;
        if (rows[0] === 0) return gate.done;
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
      { maxRows: 500, maxWaitMs: 250, isRowError: (error) => (error as { code?: string }).code === '22001', onDropped: () => undefined },
    );
    const first = writer.add([0]);
    await new Promise((r) => setImmediate(r)); // the first write starts
    const callers = [writer.add([1]), writer.add([2, 3])].map((p) =>
      p.then(
        () => 'stored',
        (e: Error) => e.message,
      ),
    );
    gate.release();
    await first;
    expect(await Promise.all(callers)).toEqual(['connect ECONNREFUSED', 'connect ECONNREFUSED']);
    expect(calls).toBe(2);
  });

  it('answers each caller with the rows the write reports it stored (a retried event is not stored again)', async () => {
    const seen = new Set<number>();
    const writer = new BatchWriter<number>(async (rows) => {
      const fresh = rows.filter((r) => !seen.has(r));
      fresh.forEach((r) => seen.add(r));
      return fresh;
    });
    expect(await writer.add([1, 2])).toEqual([1, 2]);
    expect(await writer.add([2, 3])).toEqual([3]);
  });
});
