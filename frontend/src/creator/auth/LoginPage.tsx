import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Alert from '@mui/material/Alert';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useForm } from '../../shared/forms';
import { PasswordInput, TextInput } from '../../shared/inputs';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import type { AuthData } from '../../shared/types';
import { afterLoginRoute } from '../guard';
import { AuthLayout } from './AuthLayout';

export const LoginPage = () => {
  const form = useForm({ email: '', password: '' });
  const session = useSession();
  const alert = useAlert();
  const navigate = useNavigate();
  const onSubmit = form.submit(async (values) => {
    const res = await api.post<AuthData>('auth/login', values);
    alert.success(res.message ?? '');
    const { user, subscription } = await session.signIn(res.data);
    navigate(afterLoginRoute(user, subscription), { replace: true });
  });
  return (
    <AuthLayout title="Log in">
      {session.restoreFailed && window.location.search.includes('expired') && <Alert severity="info">Your session has ended. Please log in again.</Alert>}
      <Box component="form" noValidate onSubmit={onSubmit}>
        <TextInput
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          value={form.values.email}
          onChange={(v) => form.set('email', v)}
          error={form.error('email')}
          requiredMark
          autoFocus
        />
        <PasswordInput
          name="password"
          label="Password"
          autoComplete="current-password"
          value={form.values.password}
          onChange={(v) => form.set('password', v)}
          error={form.error('password')}
          requiredMark
        />
        <Box sx={{ textAlign: 'right' }}>
          <Link component={RouterLink} to={ROUTES.ForgotPassword}>
            Forgot password?
          </Link>
        </Box>
        <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} disabled={form.submitting}>
          Log in
        </Button>
        <Box sx={{ mt: 2, textAlign: 'center' }}>
          Don't have an account?{' '}
          <Link component={RouterLink} to={ROUTES.UserRegister}>
            Register
          </Link>
        </Box>
      </Box>
    </AuthLayout>
  );
};
