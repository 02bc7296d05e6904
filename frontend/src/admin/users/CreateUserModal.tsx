import Box from '@mui/material/Box';
import DialogContent from '@mui/material/DialogContent';
import { createUserSchema, type UserResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { FormPasswordInput, FormTextInput, useApiForm } from '../../shared/form';
import { FormToggle } from '../../shared/form-toggle';
import { FormDialogActions } from '../../shared/FormDialogActions';

/** create-user: an account an admin vouches for (verified at once); the list reloads after it. */
export const CreateUserModal = ({ close }: { close: () => void }) => {
  const form = useApiForm(createUserSchema, { first_name: '', last_name: '', email: '', password: '', password_confirmation: '', is_admin: false });
  const create = useApiMutation({
    mutationFn: (body: unknown) => api.post<UserResource>('admin/users', body),
    invalidates: [['users']],
    onSuccess: close,
  });
  const { control } = form;
  return (
    <Box component="form" noValidate onSubmit={(event) => void form.submit(async (body) => void (await create.mutateAsync(body)))(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
          <FormTextInput control={control} name="first_name" label="First name" autoComplete="off" requiredMark fullWidth margin="normal" autoFocus />
          <FormTextInput control={control} name="last_name" label="Last name" autoComplete="off" requiredMark fullWidth margin="normal" />
        </Box>
        <FormTextInput control={control} name="email" label="Email" type="email" autoComplete="off" requiredMark fullWidth margin="normal" />
        <FormPasswordInput control={control} name="password" label="Password" autoComplete="new-password" requiredMark fullWidth margin="normal" />
        <FormPasswordInput
          control={control}
          name="password_confirmation"
          label="Confirm password"
          autoComplete="new-password"
          requiredMark
          fullWidth
          margin="normal"
        />
        <FormToggle control={control} name="is_admin" label="Admin" helperText="Admins manage users, plans and settings. The role cannot be changed later." />
      </DialogContent>
      <FormDialogActions onCancel={close} label="Create User" disabled={form.submitting} />
    </Box>
  );
};
