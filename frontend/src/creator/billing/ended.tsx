import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useNavigate } from 'react-router-dom';
import { MESSAGES, grantsAccess, mayResume, messageTemplates, type SubscriptionResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { formatDate } from '../../shared/format';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';

/** A canceled subscription of the app the user may resume themselves: one they cancelled (the API's rule). */
export const userMayResume = (sub: SubscriptionResource | null): sub is SubscriptionResource =>
  Boolean(sub && sub.status === 'canceled' && sub.managed_by === 'platform' && mayResume(sub.canceled_by, 'user'));

/** A subscription an administrator ended: only support can bring it back. */
export const endedByAdmin = (sub: SubscriptionResource | null): boolean => Boolean(sub && sub.status === 'canceled' && sub.canceled_by === 'admin');

/** Resumes the user's subscription, then reads the session again (where the user may go follows from it). */
const useResumeSubscription = (onResumed?: () => void | Promise<void>) => {
  const session = useSession();
  return useApiMutation({
    mutationFn: (id: number) => api.post(`users/subscriptions/${id}/resume`),
    invalidates: [keys.billing.all],
    onSuccess: async () => {
      await session.refresh();
      await onResumed?.();
    },
  });
};

/** The Resume button, for a subscription the user may resume. */
export const ResumeButton = ({
  sub,
  variant = 'contained',
  onResumed,
}: {
  sub: SubscriptionResource;
  variant?: 'contained' | 'outlined' | 'text';
  onResumed?: () => void | Promise<void>;
}) => {
  const resume = useResumeSubscription(onResumed);
  return (
    <Button variant={variant} disabled={resume.isPending} onClick={() => resume.run(sub.id)}>
      Resume
    </Button>
  );
};

/** What an administrator's cancellation leaves the user: the sentence instead of a Resume that can only fail. */
export const EndedByAdminNotice = () => (
  // The sentence wraps on a narrow screen rather than making the notice a scroll box.
  <Alert severity="warning" sx={{ mb: 2, '& .MuiAlert-message': { overflow: 'visible', overflowWrap: 'anywhere' } }} data-testid="ended-by-admin">
    {MESSAGES.endedByAdministrator}
  </Alert>
);

/**
 * The dashboard's banner once the user's subscription is canceled: when their live funnels go (or
 * went) offline for viewers, with Resume where the user may resume it (the administrator's
 * sentence when one ended it) and Choose a plan.
 */
export const SubscriptionEndedBanner = () => {
  const { subscription: sub } = useSession();
  const navigate = useNavigate();
  if (!sub || sub.status !== 'canceled' || sub.managed_by !== 'platform') return null;
  const when = formatDate(sub.canceled_at);
  const stillOnline = grantsAccess(sub);
  return (
    <Alert severity={stillOnline ? 'info' : 'warning'} sx={{ mb: 2 }} data-testid="subscription-ended-banner">
      {stillOnline ? messageTemplates.funnelsGoOffline(when) : messageTemplates.funnelsOffline(when)}
      {endedByAdmin(sub) && <Box sx={{ mt: 0.5 }}>{MESSAGES.endedByAdministrator}</Box>}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1.5 }}>
        {userMayResume(sub) && <ResumeButton sub={sub} />}
        <Button variant="outlined" color="inherit" onClick={() => navigate(ROUTES.SelectSubscriptionPlan)}>
          Choose a plan
        </Button>
      </Box>
    </Alert>
  );
};
