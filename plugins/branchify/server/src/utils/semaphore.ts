/** Thrown by `run` when every slot is busy and the queue is full. */
export class SemaphoreFull extends Error {
  override name = 'SemaphoreFull';
}

export interface Semaphore {
  /** Runs `work` once a slot is free (in arrival order); throws SemaphoreFull when `queue` callers already wait. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Slots in use and callers waiting, for logs and tests. */
  readonly load: { active: number; waiting: number };
}

/** At most `slots` pieces of work at once in this process, at most `queue` more waiting for a slot. */
export const createSemaphore = (slots: number, queue: number): Semaphore => {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    // The slot passes straight to the next in line, so a newcomer cannot overtake it.
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (active < slots) active += 1;
      else if (waiting.length >= queue) throw new SemaphoreFull();
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        release();
      }
    },
    get load() {
      return { active, waiting: waiting.length };
    },
  };
};
