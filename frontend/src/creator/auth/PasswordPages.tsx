import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { loadForgotSchema, loadResetSchema } from './schema-loaders';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { PasswordInput, TextInput } from '../../shared/inputs/TextInput';
import { usePlainForm } from '../../shared/plain-form';
import { ROUTES } from '../../shared/routes';
import { AuthLayout } from './AuthLayout';

const RESET_EMAIL_KEY = 'branchify.reset-email';

export const ForgotPasswordPage = () => {
  const form = usePlainForm(loadForgotSchema, { email: '' });
  const alert = useAlert();
  const navigate = useNavigate();
  const onSubmit = form.submit(async (values) => {
    const res = await api.post('auth/password/forgot', values);
    alert.success(res.message ?? '');
    sessionStorage.setItem(RESET_EMAIL_KEY, values.email);
    navigate(ROUTES.ResendPasswordResetLink);
  });
  return (
    <AuthLayout title="Forgot your password?" subtitle="Enter your email and we'll send you a link to reset it.">
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextInput {...form.field('email')} type="email" label="Email" autoComplete="email" requiredMark autoFocus />
        <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} disabled={form.submitting}>
          Send reset link
        </Button>
        <Box sx={{ mt: 2, textAlign: 'center' }}>
          <Link component={RouterLink} to={ROUTES.UserLogin}>
            Back to login
          </Link>
        </Box>
      </Box>
    </AuthLayout>
  );
};

export const ResendPasswordResetLinkPage = () => {
  const alert = useAlert();
  const [email] = useState(() => sessionStorage.getItem(RESET_EMAIL_KEY) ?? '');
  const form = usePlainForm(loadForgotSchema, { email });
  const onSubmit = form.submit(async (values) => {
    const res = await api.post('auth/password/forgot', values);
    alert.success(res.message ?? '');
  });
  return (
    <AuthLayout title="Check your email">
      <Typography sx={{ mb: 1 }}>If an account exists for this address, a password reset link is on its way. It expires in 60 minutes.</Typography>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextInput {...form.field('email')} type="email" label="Email" />
        <Button type="submit" variant="outlined" fullWidth sx={{ mt: 1 }} disabled={form.submitting}>
          Resend link
        </Button>
      </Box>
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <Link component={RouterLink} to={ROUTES.UserLogin}>
          Back to login
        </Link>
      </Box>
    </AuthLayout>
  );
};

export const PasswordResetPage = () => {
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  // The link's token and email travel with the new password; they have no inputs of their own.
  const form = usePlainForm(loadResetSchema, { token: params.get('token') ?? '', email, password: '', password_confirmation: '' });
  const alert = useAlert();
  const navigate = useNavigate();
  const onSubmit = form.submit(async (values) => {
    const res = await api.post('auth/password/reset', values);
    alert.success(res.message ?? '');
    navigate(ROUTES.UserLogin, { replace: true });
  });
  const linkError = form.errors.token ?? form.errors.email;
  return (
    <AuthLayout title="Reset your password" subtitle={email ? `For ${email}` : undefined}>
      {linkError && (
        <Alert severity="error" sx={{ mb: 1 }} data-testid="reset-link-error">
          {linkError}{' '}
          <Link component={RouterLink} to={ROUTES.ForgotPassword}>
            Request a new link
          </Link>
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <PasswordInput {...form.field('password')} label="New password" autoComplete="new-password" requiredMark autoFocus />
        <PasswordInput {...form.field('password_confirmation')} label="Confirm new password" autoComplete="new-password" requiredMark />
        <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} disabled={form.submitting}>
          Reset password
        </Button>
      </Box>
    </AuthLayout>
  );
};
