import { Suspense, lazy, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { AuthResource } from '@branchify/shared';
import { loadLoginSchema } from './schema-loaders';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { PasswordInput, TextInput } from '../../shared/inputs/TextInput';
import { usePlainForm } from '../../shared/plain-form';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import { afterLoginRoute } from '../guard';
import { AuthLayout } from './AuthLayout';

// The notices below show after a lost session or on a fresh install only: MUI's Alert loads when one does.
const Alert = lazy(() => import('@mui/material/Alert'));

/** GET setup (public): whether the next account to register becomes the administrator, and nothing more. */
interface InstallStatus {
  awaiting_administrator: boolean;
}

/** True once the server says the install has no administrator yet: the first account to register becomes it. */
const useAwaitingAdministrator = (): boolean => {
  const [awaiting, setAwaiting] = useState(false);
  useEffect(() => {
    let live = true;
    api.get<InstallStatus>('setup').then(
      (res) => {
        if (live) setAwaiting(res.data.awaiting_administrator);
      },
      // Not known: the page is the usual sign-in page.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return awaiting;
};

export const LoginPage = () => {
  const form = usePlainForm(loadLoginSchema, { email: '', password: '' });
  const session = useSession();
  const alert = useAlert();
  const navigate = useNavigate();
  const awaitingAdministrator = useAwaitingAdministrator();
  const onSubmit = form.submit(async (values) => {
    const res = await api.post<AuthResource>('auth/login', values);
    alert.success(res.message ?? '');
    const { user, subscription } = await session.signIn(res.data);
    navigate(afterLoginRoute(user, subscription), { replace: true });
  });
  return (
    <AuthLayout title="Log in">
      <Suspense fallback={null}>
        {session.restoreFailed && window.location.search.includes('expired') && <Alert severity="info">Your session has ended. Please log in again.</Alert>}
        {session.signedOutBecause && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="signed-out-because">
            {session.signedOutBecause}
          </Alert>
        )}
        {awaitingAdministrator && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="first-account-notice">
            This installation has no administrator yet. The first account to register becomes the administrator.{' '}
            <Link component={RouterLink} to={ROUTES.UserRegister} sx={{ fontWeight: 600 }}>
              Register
            </Link>
          </Alert>
        )}
      </Suspense>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextInput {...form.field('email')} type="email" label="Email" autoComplete="email" requiredMark autoFocus />
        <PasswordInput {...form.field('password')} label="Password" autoComplete="current-password" requiredMark />
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
