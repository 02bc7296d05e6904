import Box from '@mui/material/Box';
import DialogContent from '@mui/material/DialogContent';
import { MESSAGES, updateProfileSchema, type UserResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { FormTextInput, useApiForm } from '../../shared/form';
import { FormToggle } from '../../shared/form-toggle';
import { FormDialogActions } from '../../shared/FormDialogActions';

/** edit-user: first name, last name and email; the admin role is shown but cannot change. */
export const EditUserModal = ({ user, close }: { user: UserResource; close: () => void }) => {
  const form = useApiForm(updateProfileSchema, { first_name: user.first_name, last_name: user.last_name, email: user.email, is_admin: user.is_admin });
  const update = useApiMutation({
    // Only what the edit changes: the role and the status have their own rules.
    mutationFn: ({ first_name, last_name, email }: { first_name: string; last_name: string; email: string }) =>
      api.put<UserResource>(`admin/users/${user.id}`, { first_name, last_name, email }),
    invalidates: [['users']],
    onSuccess: close,
  });
  const { control } = form;
  return (
    <Box component="form" noValidate onSubmit={(event) => void form.submit(async (body) => void (await update.mutateAsync(body)))(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
          <FormTextInput control={control} name="first_name" label="First name" autoComplete="off" requiredMark fullWidth margin="normal" autoFocus />
          <FormTextInput control={control} name="last_name" label="Last name" autoComplete="off" requiredMark fullWidth margin="normal" />
        </Box>
        <FormTextInput control={control} name="email" label="Email" type="email" autoComplete="off" requiredMark fullWidth margin="normal" />
        <FormToggle control={control} name="is_admin" label="Admin" disabled helperText={MESSAGES.adminRoleReadOnly} />
      </DialogContent>
      <FormDialogActions onCancel={close} label="Save" disabled={form.submitting} />
    </Box>
  );
};
