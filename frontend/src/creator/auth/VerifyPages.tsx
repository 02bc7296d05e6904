import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '@branchify/shared';
import { api, errorMessage } from '../../shared/api';
import { useCustomization } from '../../shared/customization';
import { useAlert } from '../../shared/alerts';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import { afterLoginRoute } from '../guard';
import { AuthLayout } from './AuthLayout';

/** /verify-notice: check your inbox, resend the link, or log out. */
export const VerifyNoticePage = () => {
  const session = useSession();
  const alert = useAlert();
  const navigate = useNavigate();
  const { customization, loaded } = useCustomization();
  // Without a mailer nothing was sent and nothing can be resent: the page says so instead (and
  // claims nothing before it knows).
  const noMailer = customization.mailer_configured === false;
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      const res = await api.post('auth/send-verification-email');
      alert.success(res.message ?? '');
    } catch (error) {
      alert.error(error);
    } finally {
      setBusy(false);
    }
  };
  const logOut = async () => {
    await session.signOut();
    navigate(ROUTES.UserLogin);
  };
  return (
    <AuthLayout title="Verify your email address">
      <Typography sx={{ mb: 2 }}>
        {!loaded ? null : noMailer ? (
          <>
            {MESSAGES.verificationMailUnavailable}
            {session.user ? (
              <>
                {' '}
                Your account: <strong>{session.user.email}</strong>.
              </>
            ) : null}
          </>
        ) : session.user ? (
          <>
            We sent a verification link to <strong>{session.user.email}</strong>. Open it to activate your account.
          </>
        ) : (
          'We sent you a verification link. Open it to activate your account.'
        )}
      </Typography>
      {session.user ? (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {!loaded || noMailer ? null : (
            <Button variant="contained" onClick={() => void resend()} disabled={busy}>
              Resend verification link
            </Button>
          )}
          <Button onClick={() => void logOut()}>Logout</Button>
        </Box>
      ) : (
        <Link component={RouterLink} to={ROUTES.UserLogin}>
          {noMailer ? 'Log in' : 'Log in to resend the link'}
        </Link>
      )}
    </AuthLayout>
  );
};

/** /email-verify?id&hash&expires&signature: verifies, then EmailVerified. */
export const EmailVerifyPage = () => {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  // The link is used once, when the page opens; the session is read when the answer arrives (it
  // may have been restored meanwhile), not as it was when the page opened.
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const body = { id: params.get('id'), hash: params.get('hash'), expires: params.get('expires'), signature: params.get('signature') };
    void (async () => {
      try {
        const res = await api.post('auth/verify-email', body);
        alert.success(res.message ?? '');
        if (sessionRef.current.user) await sessionRef.current.refresh();
        navigate(ROUTES.EmailVerified, { replace: true });
      } catch (e) {
        setError(errorMessage(e));
        alert.error(e);
      }
    })();
  }, [params, alert, navigate]);
  return (
    <AuthLayout title="Verifying your email">
      {error ? (
        <>
          <Typography color="error" sx={{ mb: 2 }}>
            {error}
          </Typography>
          <Link component={RouterLink} to={ROUTES.VerifyNotice}>
            Request a new verification link
          </Link>
        </>
      ) : (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 3 }}>
          <CircularProgress aria-label="Verifying" />
        </Box>
      )}
    </AuthLayout>
  );
};

/** /account-verified: done; continue where the account should go next. */
export const AccountVerifiedPage = () => {
  const session = useSession();
  const navigate = useNavigate();
  const proceed = async () => {
    const fresh = session.user ? await session.refresh() : null;
    navigate(fresh ? afterLoginRoute(fresh.user, fresh.subscription) : ROUTES.UserLogin);
  };
  return (
    <AuthLayout title="Account verified">
      <Typography sx={{ mb: 2 }}>Your email address is verified. You're all set.</Typography>
      <Button variant="contained" onClick={() => void proceed()}>
        Continue
      </Button>
    </AuthLayout>
  );
};
