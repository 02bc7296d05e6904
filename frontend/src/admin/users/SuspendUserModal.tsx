import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { MESSAGES, updateStatusSchema, type UserResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { FormTextArea, useApiForm } from '../../shared/form';
import { fullName } from './format';

/**
 * suspend-user: 'Suspend User' with a required reason (status_note), or 'Reactivate User' without
 * one. An admin cannot be suspended: the modal says so and sends nothing.
 */
export const SuspendUserModal = ({ user, close }: { user: UserResource; close: () => void }) => {
  const suspending = user.status === 'active';
  const form = useApiForm(updateStatusSchema, { status: suspending ? 'suspended' : 'active', status_note: '' });
  const change = useApiMutation({
    mutationFn: (body: { status: string; status_note?: string }) => api.put<UserResource>(`admin/users/${user.id}`, body),
    invalidates: [['users']],
    onSuccess: close,
  });

  if (suspending && user.is_admin) {
    return (
      <>
        <DialogContent sx={{ pt: 0 }}>
          <Alert severity="warning" role="alert">
            {MESSAGES.adminCannotBeSuspended}
          </Alert>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} autoFocus>
            Close
          </Button>
        </DialogActions>
      </>
    );
  }

  const onSubmit = form.submit(async ({ status, status_note }) => {
    // A reactivation carries no reason; an empty note is left out.
    await change.mutateAsync(suspending && status_note ? { status, status_note } : { status });
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <DialogContentText component="div">
          {suspending ? (
            <>
              <strong>{fullName(user)}</strong> will be signed out and cannot log in, and their embedded funnels stop loading. Their subscription keeps
              renewing: cancel it separately if needed.
            </>
          ) : (
            <>
              <strong>{fullName(user)}</strong> can log in again and their funnels load again. Their subscription is not changed.
            </>
          )}
        </DialogContentText>
        {suspending && <FormTextArea control={form.control} name="status_note" label="Reason" rows={6} requiredMark fullWidth margin="normal" autoFocus />}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="contained" color={suspending ? 'error' : 'primary'} disabled={form.submitting} autoFocus={!suspending}>
          {suspending ? 'Suspend User' : 'Reactivate User'}
        </Button>
      </DialogActions>
    </Box>
  );
};
