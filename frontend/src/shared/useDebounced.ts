import { useEffect, useState } from 'react';

/** The value, `ms` after it last changed (library search 500 ms, video URL/ID 1000 ms). */
export const useDebounced = <T>(value: T, ms: number): T => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return debounced;
};
