import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useForm } from '../../shared/forms';
import { PasswordInput, TextInput } from '../../shared/inputs';
import { ROUTES } from '../../shared/routes';
import { AuthLayout } from './AuthLayout';

const RESET_EMAIL_KEY = 'branchify.reset-email';

export const ForgotPasswordPage = () => {
  const form = useForm({ email: '' });
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
  const form = useForm({ email });
  const onSubmit = form.submit(async (values) => {
    const res = await api.post('auth/password/forgot', values);
    alert.success(res.message ?? '');
  });
  return (
    <AuthLayout title="Check your email">
      <Typography sx={{ mb: 1 }}>If an account exists for this address, a password reset link is on its way. It expires in 60 minutes.</Typography>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <TextInput name="email" type="email" label="Email" value={form.values.email} onChange={(v) => form.set('email', v)} error={form.error('email')} />
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
  const form = useForm({ password: '', password_confirmation: '' });
  const alert = useAlert();
  const navigate = useNavigate();
  const email = params.get('email') ?? '';
  const onSubmit = form.submit(async (values) => {
    const res = await api.post('auth/password/reset', { ...values, token: params.get('token') ?? '', email });
    alert.success(res.message ?? '');
    navigate(ROUTES.UserLogin, { replace: true });
  });
  return (
    <AuthLayout title="Reset your password" subtitle={email ? `For ${email}` : undefined}>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <PasswordInput
          name="password"
          label="New password"
          autoComplete="new-password"
          value={form.values.password}
          onChange={(v) => form.set('password', v)}
          error={form.error('password') ?? form.error('token') ?? form.error('email')}
          requiredMark
          autoFocus
        />
        <PasswordInput
          name="password_confirmation"
          label="Confirm new password"
          autoComplete="new-password"
          value={form.values.password_confirmation}
          onChange={(v) => form.set('password_confirmation', v)}
          error={form.error('password_confirmation')}
          requiredMark
        />
        <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} disabled={form.submitting}>
          Reset password
        </Button>
      </Box>
    </AuthLayout>
  );
};
