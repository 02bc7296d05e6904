import { Suspense, createContext, lazy, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from './api';

// The banners (MUI's Alert and its icons) load with the first one shown: most first screens show none.
const AlertBanners = lazy(() => import('./alert-banners'));

/** The floating alert banner: red for errors, green otherwise, gone after 5000 ms. */
const ALERT_DISMISS_MS = 5000;

export interface AlertItem {
  id: number;
  message: string;
  error: boolean;
}

interface AlertApi {
  show(message: string, error?: boolean): void;
  success(message: string): void;
  error(errorOrMessage: unknown): void;
}

const AlertContext = createContext<AlertApi | null>(null);

export const AlertProvider = ({ children }: { children: ReactNode }) => {
  const [items, setItems] = useState<AlertItem[]>([]);
  const seq = useRef(0);
  const dismiss = useCallback((id: number) => setItems((all) => all.filter((a) => a.id !== id)), []);
  const show = useCallback(
    (message: string, error = false) => {
      if (!message) return;
      seq.current += 1;
      const id = seq.current;
      setItems((all) => [...all.filter((a) => a.message !== message), { id, message, error }]);
      window.setTimeout(() => dismiss(id), ALERT_DISMISS_MS);
    },
    [dismiss],
  );
  const value = useMemo<AlertApi>(
    () => ({
      show,
      success: (message) => show(message, false),
      error: (e) => show(typeof e === 'string' ? e : errorMessage(e), true),
    }),
    [show],
  );
  return (
    <AlertContext.Provider value={value}>
      {children}
      {/* At the bottom, centred: clear of the app bars and page headers at the top (Save, Logout, the menu). */}
      <div
        style={{ position: 'fixed', bottom: 24, left: '50%', transform: 'translateX(-50%)', zIndex: 20_000_000, width: 'min(440px, 92vw)' }}
        aria-live="polite"
      >
        {items.length > 0 && (
          <Suspense fallback={null}>
            <AlertBanners items={items} dismiss={dismiss} />
          </Suspense>
        )}
      </div>
    </AlertContext.Provider>
  );
};

export const useAlert = (): AlertApi => {
  const ctx = useContext(AlertContext);
  if (!ctx) throw new Error('useAlert outside AlertProvider');
  return ctx;
};
