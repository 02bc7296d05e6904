import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { DocumentStore } from './document-store';
import { useDocument } from './useDocument';

/** Leaving with unsaved changes asks first (in the app, and when the tab closes): stay, leave, or save and leave. */
export const LeaveGuard = ({ store, saveNow }: { store: DocumentStore; saveNow: () => Promise<boolean> }) => {
  const dirty = useDocument(store, (s) => s.dirty);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const saveAndLeave = async () => {
    if (await saveNow()) blocker.proceed?.();
    else blocker.reset?.();
  };

  return (
    <Dialog open={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} aria-labelledby="leave-title" data-modal="unsaved-changes">
      <DialogTitle id="leave-title">Leave without saving?</DialogTitle>
      <DialogContent>
        <DialogContentText>This funnel has changes that are not saved yet.</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()}>Stay</Button>
        <Button color="error" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
        <Button variant="contained" onClick={() => void saveAndLeave()}>
          Save and leave
        </Button>
      </DialogActions>
    </Dialog>
  );
};
