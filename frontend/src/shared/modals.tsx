import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';

/**
 * The modal host: modals by name, stacked, each closable by its backdrop or
 * close icon, with z-index from 10,000,000 upwards. MUI's Dialog traps and restores focus.
 */
export const MODAL_Z_INDEX = 10_000_000;

export interface ModalProps {
  close: () => void;
}

interface OpenModal {
  id: number;
  name: string;
  title: ReactNode;
  render: (props: ModalProps) => ReactNode;
  maxWidth: 'xs' | 'sm' | 'md' | 'lg';
  onClose?: () => void;
}

export interface OpenOptions {
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
      {stack.map((m, index) => {
        const titleId = `modal-title-${m.id}`;
        return (
          <Dialog
            key={m.id}
            open
            onClose={() => closeOne(m.id)}
            maxWidth={m.maxWidth}
            fullWidth
            aria-labelledby={titleId}
            data-modal={m.name}
            sx={{ zIndex: MODAL_Z_INDEX + index }}
          >
            <DialogTitle id={titleId} sx={{ pr: 6 }}>
              {m.title}
            </DialogTitle>
            <IconButton aria-label="Close dialog" onClick={() => closeOne(m.id)} sx={{ position: 'absolute', right: 8, top: 8 }}>
              <CloseIcon />
            </IconButton>
            {m.render({ close: () => closeOne(m.id) })}
          </Dialog>
        );
      })}
    </ModalContext.Provider>
  );
};

export const useModals = (): ModalApi => {
  const ctx = useContext(ModalContext);
  if (!ctx) throw new Error('useModals outside ModalProvider');
  return ctx;
};
