import { MESSAGES, type StripeProblem } from '@branchify/shared';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useWatch } from 'react-hook-form';
import { api } from '../../shared/api';

/** Whether payments can work (GET admin/stripe), and why not: paid plans can be saved without it, not sold. */
const useStripePayments = () =>
  useQuery({
    queryKey: ['admin', 'plans', 'stripe-payments'],
    queryFn: async () => {
      const view = (await api.get<{ ready: boolean; problem: StripeProblem | null }>('admin/stripe')).data;
      return { ready: view.ready, problem: view.problem };
    },
    staleTime: 0,
  });

/** Why paid plans are not offered to users, as the admin reads it. */
export const STRIPE_PROBLEM_MESSAGES: Record<StripeProblem, string> = {
  missing: MESSAGES.planNeedsStripe,
  refused: MESSAGES.planStripeRefused,
  unreachable: MESSAGES.planStripeUnreachable,
  mismatch: MESSAGES.planStripeKeysMismatch,
};

/** Why nobody can pay for paid plans yet, with the way to fix it. */
export const StripeWarning = () => {
  const { data } = useStripePayments();
  if (data?.ready) return null;
  return (
    <Alert severity="warning" data-testid="plan-stripe-warning" sx={{ my: 1 }}>
      {STRIPE_PROBLEM_MESSAGES[data?.problem ?? 'missing']}{' '}
      <Link component={RouterLink} to="/admin/integrations?tab=0">
        {data?.problem && data.problem !== 'missing' ? 'Check the Stripe keys' : 'Connect Stripe'}
      </Link>
    </Alert>
  );
};

/** In the plan form: shown while a paid schedule is chosen and payments cannot work. */
export const StripeNotice = () => {
  const schedule = useWatch({ name: 'payment_schedule' }) as string | undefined;
  const { data } = useStripePayments();
  if (schedule === 'free' || !data || data.ready) return null;
  return <StripeWarning />;
};
