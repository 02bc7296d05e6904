import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { MESSAGES, type UserResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { ROUTES } from '../../shared/routes';
import { ModalWarning, useModalFailure } from '../subscriptions/failure';
import { fullName } from './format';

/**
 * delete-user: after a confirmation the account and everything it owns is removed and the admin
 * lands on the users list. Never offered for the admin's own account (the API refuses it too).
 * Modals render outside react-admin's context: what they need of it comes in as props.
 */
export const DeleteUserModal = ({ user, self, close }: { user: UserResource; self: boolean; close: () => void }) => {
  const client = useQueryClient();
  const navigate = useNavigate();
  const failure = useModalFailure([]);
  const remove = useApiMutation({
    mutationFn: () => api.delete(`admin/users/${user.id}`),
    onSuccess: async () => {
      close();
      navigate(ROUTES.UsersList);
      // The page of the deleted user must not be fetched again (it would be a 404).
      client.removeQueries({ queryKey: ['users', 'getOne'] });
      await client.invalidateQueries({ queryKey: ['users'] });
    },
  });
  return (
    <>
      <DialogContent sx={{ pt: 0 }}>
        <ModalWarning message={self ? MESSAGES.cannotDeleteSelf : failure.warning} />
        {!self && (
          <DialogContentText component="div">
            <p style={{ marginTop: 0 }}>
              Delete <strong>{fullName(user)}</strong> ({user.email})?
            </p>
            <p style={{ marginBottom: 0 }}>
              Their funnels, videos, subscriptions and invoices are removed, and a subscription still billing them is cancelled with the payment provider first.
              This cannot be undone.
            </p>
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        {!self && (
          <Button variant="contained" color="error" disabled={remove.isPending} onClick={() => remove.mutate(undefined, { onError: failure.fail })}>
            Delete User
          </Button>
        )}
      </DialogActions>
    </>
  );
};
