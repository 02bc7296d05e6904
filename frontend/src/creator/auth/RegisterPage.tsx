import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useForm } from '../../shared/forms';
import { PasswordInput, TextInput } from '../../shared/inputs';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import type { AuthData } from '../../shared/types';
import { AuthLayout } from './AuthLayout';

export const RegisterPage = () => {
  const form = useForm({ first_name: '', last_name: '', email: '', password: '', password_confirmation: '' });
  const session = useSession();
  const alert = useAlert();
  const navigate = useNavigate();
  const onSubmit = form.submit(async (values) => {
    const res = await api.post<AuthData>('auth/register', values);
    alert.success(res.message ?? '');
    const { user } = await session.signIn(res.data);
    // Non-admin → VerifyNotice, admin (the install's first account) → UsersList.
    navigate(user.is_admin ? ROUTES.UsersList : ROUTES.VerifyNotice, { replace: true });
  });
  return (
    <AuthLayout title="Create your account">
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
          <TextInput
            name="first_name"
            label="First name"
            autoComplete="given-name"
            value={form.values.first_name}
            onChange={(v) => form.set('first_name', v)}
            error={form.error('first_name')}
            requiredMark
            autoFocus
          />
          <TextInput
            name="last_name"
            label="Last name"
            autoComplete="family-name"
            value={form.values.last_name}
            onChange={(v) => form.set('last_name', v)}
            error={form.error('last_name')}
            requiredMark
          />
        </Stack>
        <TextInput
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          value={form.values.email}
          onChange={(v) => form.set('email', v)}
          error={form.error('email')}
          requiredMark
        />
        <PasswordInput
          name="password"
          label="Password"
          autoComplete="new-password"
          value={form.values.password}
          onChange={(v) => form.set('password', v)}
          error={form.error('password')}
          requiredMark
        />
        <PasswordInput
          name="password_confirmation"
          label="Confirm password"
          autoComplete="new-password"
          value={form.values.password_confirmation}
          onChange={(v) => form.set('password_confirmation', v)}
          error={form.error('password_confirmation')}
          requiredMark
        />
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
