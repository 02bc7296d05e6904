import { useEffect, useRef, type RefObject } from 'react';

export interface InfinitePages {
  hasNextPage: boolean;
  isFetching: boolean;
  isError: boolean;
  fetchNextPage: () => unknown;
}

/**
 * Asks for the next page when `sentinel` scrolls into view (inside `root`, or the viewport), at
 * most once per `throttleMs`; stops at the last page and after a failure (the Retry button asks
 * again).
 */
export const useInfiniteScroll = (sentinel: RefObject<Element | null>, pages: InfinitePages, throttleMs: number, root?: RefObject<Element | null>) => {
  const lastAsked = useRef(0);
  const { hasNextPage, isFetching, isError, fetchNextPage } = pages;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage || isFetching || isError) return undefined;
    let timer: number | undefined;
    const ask = () => {
      const wait = lastAsked.current + throttleMs - Date.now();
      if (wait > 0) {
        timer = window.setTimeout(ask, wait);
        return;
      }
      lastAsked.current = Date.now();
      void fetchNextPage();
    };
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && timer === undefined) ask();
      },
      { root: root?.current ?? null },
    );
    io.observe(el);
    return () => {
      io.disconnect();
      window.clearTimeout(timer);
    };
  }, [sentinel, root, hasNextPage, isFetching, isError, fetchNextPage, throttleMs]);
};
