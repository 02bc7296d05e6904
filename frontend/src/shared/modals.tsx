import { Suspense, createContext, lazy, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/**
 * The modal host: modals by name, stacked, each closable by its backdrop or
 * close icon, with z-index from 10,000,000 upwards. MUI's Dialog traps and restores focus.
 * The dialogs themselves (modal-stack.tsx) load with the first modal opened, so a page that
 * opens none never downloads them.
 */
export const MODAL_Z_INDEX = 10_000_000;

const ModalStack = lazy(() => import('./modal-stack'));

interface ModalProps {
  close: () => void;
}

export interface OpenModal {
  id: number;
  name: string;
  title: ReactNode;
  render: (props: ModalProps) => ReactNode;
  maxWidth: 'xs' | 'sm' | 'md' | 'lg';
  onClose?: () => void;
}

interface OpenOptions {
  name: string;
  title: ReactNode;
  render: (props: ModalProps) => ReactNode;
  maxWidth?: OpenModal['maxWidth'];
  onClose?: () => void;
}

interface ModalApi {
  open(options: OpenOptions): () => void;
  closeAll(): void;
}

const ModalContext = createContext<ModalApi | null>(null);
let seq = 0;

export const ModalProvider = ({ children }: { children: ReactNode }) => {
  const [stack, setStack] = useState<OpenModal[]>([]);
  const closeOne = useCallback((id: number) => {
    setStack((all) => {
      const found = all.find((m) => m.id === id);
      found?.onClose?.();
      return all.filter((m) => m.id !== id);
    });
  }, []);
  const api = useMemo<ModalApi>(
    () => ({
      open: (o) => {
        seq += 1;
        const id = seq;
        setStack((all) => [...all, { id, name: o.name, title: o.title, render: o.render, maxWidth: o.maxWidth ?? 'sm', onClose: o.onClose }]);
        return () => closeOne(id);
      },
      closeAll: () => setStack([]),
    }),
    [closeOne],
  );
  return (
    <ModalContext.Provider value={api}>
      {children}
      {stack.length > 0 ? (
        <Suspense fallback={null}>
          <ModalStack stack={stack} closeOne={closeOne} />
        </Suspense>
      ) : null}
    </ModalContext.Provider>
  );
};

export const useModals = (): ModalApi => {
  const ctx = useContext(ModalContext);
  if (!ctx) throw new Error('useModals outside ModalProvider');
  return ctx;
};
