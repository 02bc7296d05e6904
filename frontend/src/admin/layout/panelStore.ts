import { localStorageStore, type Store } from 'react-admin';

/** react-admin's key of the sidebar's open state (the wide sidebar's, and the narrow screen's drawer). */
const SIDEBAR_OPEN = 'sidebar.open';
/** Where the wide sidebar's own state is remembered (open unless its button folded it). */
export const WIDE_SIDEBAR_OPEN = 'branchify.sidebar.wide-open';

/**
 * react-admin's store (kept in this browser), except the sidebar's open state: that one lives in
 * memory, and only what is chosen on a wide screen is remembered, for wide screens. A drawer closed
 * on a phone never folds the wide sidebar to its icons, even after a reload. `narrowQuery` is the
 * media query of the narrow layout.
 */
export const panelStore = (narrowQuery: string): Store => {
  const base = localStorageStore();
  const narrowNow = () => window.matchMedia(narrowQuery).matches;
  const listeners = new Set<(value: boolean) => void>();
  let open: boolean | undefined;
  const current = (): boolean => (open ??= narrowNow() ? false : base.getItem<boolean>(WIDE_SIDEBAR_OPEN, true) !== false);
  const set = (value: boolean | undefined) => {
    open = value ?? (narrowNow() ? false : base.getItem<boolean>(WIDE_SIDEBAR_OPEN, true) !== false);
    if (!narrowNow()) base.setItem(WIDE_SIDEBAR_OPEN, open);
    for (const listener of Array.from(listeners)) listener(open);
  };
  return {
    ...base,
    getItem: <T>(key: string, defaultValue?: T): T | undefined => (key === SIDEBAR_OPEN ? (current() as T) : base.getItem(key, defaultValue)),
    setItem: <T>(key: string, value: T): void => (key === SIDEBAR_OPEN ? set(value as boolean | undefined) : base.setItem(key, value)),
    removeItem: (key: string): void => (key === SIDEBAR_OPEN ? set(undefined) : base.removeItem(key)),
    subscribe: (key: string, callback: (value: unknown) => void) => {
      if (key !== SIDEBAR_OPEN) return base.subscribe(key, callback);
      listeners.add(callback);
      return () => {
        listeners.delete(callback);
      };
    },
  };
};
