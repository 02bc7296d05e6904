import { MESSAGES } from '@branchify/shared';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useWatch } from 'react-hook-form';
import { api } from '../../shared/api';

/** Whether Stripe is configured (GET admin/stripe): paid plans can be saved without it, not sold. */
export const useStripeConfigured = () =>
  useQuery({
    queryKey: ['admin', 'plans', 'stripe-configured'],
    queryFn: async () => (await api.get<{ configured: boolean }>('admin/stripe')).data.configured,
    staleTime: 0,
  });

/** Why nobody can pay for paid plans yet, with the way to fix it. */
export const StripeWarning = () => (
  <Alert severity="warning" data-testid="plan-stripe-warning" sx={{ my: 1 }}>
    {MESSAGES.planNeedsStripe}{' '}
    <Link component={RouterLink} to="/admin/integrations?tab=0">
      Connect Stripe
    </Link>
  </Alert>
);

/** In the plan form: shown while a paid schedule is chosen and Stripe is not configured. */
export const StripeNotice = () => {
  const schedule = useWatch({ name: 'payment_schedule' }) as string | undefined;
  const { data: configured } = useStripeConfigured();
  if (schedule === 'free' || configured !== false) return null;
  return <StripeWarning />;
};
