import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import { useFormState, type Control } from 'react-hook-form';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

/** What react-admin hands a form's `WarnWhenUnsavedChangesComponent`. */
export interface UnsavedChangesGuardProps {
  enable?: boolean;
  formRootPathName?: string;
  formControl?: Control;
}

/**
 * A react-admin form left with unsaved changes asks first (in the app, and when the tab closes):
 * stay, or leave without saving. A save or delete that succeeded leaves without asking, and so
 * does a move inside the form (its tabs).
 */
export const UnsavedChangesGuard = ({ enable = true, formRootPathName, formControl }: UnsavedChangesGuardProps) => {
  const { dirtyFields, isSubmitSuccessful, isSubmitting } = useFormState(formControl ? { control: formControl } : undefined);
  const dirty = Object.keys(dirtyFields).length > 0;
  const safe = !enable || !dirty || isSubmitSuccessful;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (safe) return false;
    const root = formRootPathName || currentLocation.pathname;
    return !nextLocation.pathname.startsWith(root) || nextLocation.pathname.startsWith(`${root}/show`);
  });
  // The save's redirect can come before the form knows the save succeeded: it goes on once it does.
  useEffect(() => {
    if (blocker.state === 'blocked' && safe) blocker.proceed();
  }, [blocker, safe]);
  useEffect(() => {
    if (safe) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [safe]);

  return (
    <Dialog
      // Not while a save runs: its own redirect goes on once it succeeds.
      open={blocker.state === 'blocked' && !safe && !isSubmitting}
      onClose={() => blocker.reset?.()}
      aria-labelledby="unsaved-changes-title"
      aria-describedby="unsaved-changes-text"
      data-modal="unsaved-changes"
    >
      <DialogTitle id="unsaved-changes-title">Leave without saving?</DialogTitle>
      <DialogContent>
        <DialogContentText id="unsaved-changes-text">Your changes on this page are not saved yet.</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()} autoFocus>
          Stay
        </Button>
        <Button color="error" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
      </DialogActions>
    </Dialog>
  );
};
