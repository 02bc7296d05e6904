/**
 * A bounded poll: a test waits for the condition it needs, never for a fixed time. It gives up
 * after `attempts` reads 100 ms apart.
 */

/** Reads until `check` holds on the value read; resolves with the last value read either way. */
export const eventually = async <T>(read: () => Promise<T>, check: (value: T) => boolean, attempts = 100): Promise<T> => {
  let value = await read();
  for (let i = 0; i < attempts && !check(value); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
};
