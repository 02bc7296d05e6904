import { useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { useModals } from './modals';
import { useAlert } from './alerts';

/**
 * quick-notice: header default 'Notice', a message, Close, and an optional
 * confirm button (default 'Confirm') that runs `onConfirm` and closes on success.
 */
export const useQuickNotice = () => {
  const modals = useModals();
  return (options: { message: ReactNode; header?: string; confirmText?: string; onConfirm?: () => Promise<void> | void; danger?: boolean }) =>
    modals.open({
      name: 'quick-notice',
      title: options.header ?? 'Notice',
      maxWidth: 'xs',
      render: ({ close }) => <QuickNotice {...options} close={close} />,
    });
};

const QuickNotice = ({
  message,
  confirmText = 'Confirm',
  onConfirm,
  danger,
  close,
}: {
  message: ReactNode;
  confirmText?: string;
  onConfirm?: () => Promise<void> | void;
  danger?: boolean;
  close: () => void;
}) => {
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const confirm = async (run: () => Promise<void> | void) => {
    setBusy(true);
    try {
      await run();
      close();
    } catch (error) {
      alert.error(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <DialogContent>
        <DialogContentText component="div">{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Close</Button>
        {onConfirm && (
          <Button variant="contained" color={danger ? 'error' : 'primary'} disabled={busy} onClick={() => void confirm(onConfirm)}>
            {confirmText}
          </Button>
        )}
      </DialogActions>
    </>
  );
};
