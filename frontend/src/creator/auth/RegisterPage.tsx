import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { AuthResource } from '@branchify/shared';
import { loadRegisterSchema } from './schema-loaders';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { PasswordInput, TextInput } from '../../shared/inputs/TextInput';
import { usePlainForm } from '../../shared/plain-form';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import { AuthLayout } from './AuthLayout';

export const RegisterPage = () => {
  const form = usePlainForm(loadRegisterSchema, { first_name: '', last_name: '', email: '', password: '', password_confirmation: '' });
  const session = useSession();
  const alert = useAlert();
  const navigate = useNavigate();
  const onSubmit = form.submit(async (values) => {
    const res = await api.post<AuthResource>('auth/register', values);
    alert.success(res.message ?? '');
    const { user } = await session.signIn(res.data);
    // Non-admin → VerifyNotice, admin (the install's first account) → UsersList.
    navigate(user.is_admin ? ROUTES.UsersList : ROUTES.VerifyNotice, { replace: true });
  });
  return (
    <AuthLayout title="Create your account">
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
          <TextInput {...form.field('first_name')} label="First name" autoComplete="given-name" requiredMark autoFocus />
          <TextInput {...form.field('last_name')} label="Last name" autoComplete="family-name" requiredMark />
        </Stack>
        <TextInput {...form.field('email')} type="email" label="Email" autoComplete="email" requiredMark />
        <PasswordInput {...form.field('password')} label="Password" autoComplete="new-password" requiredMark />
        <PasswordInput {...form.field('password_confirmation')} label="Confirm password" autoComplete="new-password" requiredMark />
        <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} disabled={form.submitting}>
          Register
        </Button>
        <Box sx={{ mt: 2, textAlign: 'center' }}>
          Already have an account?{' '}
          <Link component={RouterLink} to={ROUTES.UserLogin}>
            Log in
          </Link>
        </Box>
      </Box>
    </AuthLayout>
  );
};
