import { useLayoutEffect, useRef, useState } from 'react';

type Handlers = Record<string, ((...args: never[]) => unknown) | undefined>;

/**
 * The same functions for the component's whole life, each calling the latest one given (or nothing
 * when that is undefined): a memoised child handed them does not render again because a parent
 * made new closures. The keys must not change between renders.
 */
export const useStableHandlers = <T extends Handlers>(handlers: T): { [K in keyof T]-?: NonNullable<T[K]> } => {
  const latest = useRef(handlers);
  useLayoutEffect(() => {
    latest.current = handlers;
  });
  const [stable] = useState(() => {
    const out: Record<string, (...args: never[]) => unknown> = {};
    for (const key of Object.keys(handlers)) out[key] = (...args: never[]) => latest.current[key]?.(...args);
    return out;
  });
  return stable as { [K in keyof T]-?: NonNullable<T[K]> };
};
