import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';
import { useCustomization } from './customization';
import { useSession } from './session';

/** 'Email Configuration Required', for admins while no mailer is configured. */
export const MailerBanner = () => {
  const { customization, loaded } = useCustomization();
  const { user } = useSession();
  if (!loaded || !user?.is_admin || customization.mailer_configured !== false) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="mailer-banner">
      <AlertTitle>Email Configuration Required</AlertTitle>
      No email service is configured, so users won't receive verification emails, password resets or alerts.{' '}
      <Link component={RouterLink} to="/admin/integrations?tab=1">
        Configure email in the integration settings
      </Link>
      .
    </Alert>
  );
};
