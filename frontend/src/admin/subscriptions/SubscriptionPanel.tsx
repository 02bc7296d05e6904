import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { MESSAGES, grantsAccess, priceDisplay, type SubscriptionResource, type UserResource } from '@branchify/shared';
import { daysUntil, formatDate, isNearRenewal } from '../../shared/format';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { Loaded } from '../../shared/Loader';
import { useUserSubscription } from './data';
import { statusLabel, subscriptionBadge } from './format';
import { useSubscriptionModals } from './modals';
import { Field, Section } from './Section';

const RenewalWarning = ({ renewsAt }: { renewsAt: string }) => {
  const days = daysUntil(renewsAt) ?? 0;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="renewal-warning">
      This subscription renews {days === 0 ? 'today' : `in ${days} day${days === 1 ? '' : 's'}`}, on {formatDate(renewsAt)}.
    </Alert>
  );
};

/** What a subscription waiting on the user's payment is waiting for. */
const WAITING: Record<string, string> = {
  payment_required: 'Waiting for payment: the user is asked to pay the open invoice when they next log in.',
  failed_renewal: 'The last renewal payment failed: the user is asked to pay the open invoice when they next log in.',
  pending: "Waiting for the user's bank to confirm the payment.",
};

const Details = ({ sub }: { sub: SubscriptionResource }) => {
  const renewing = sub.status === 'active' && !sub.cancel_at_period_end;
  const graceUntil = sub.status === 'canceled' && grantsAccess(sub) ? sub.canceled_at : null;
  return (
    <>
      {renewing && isNearRenewal(sub.renews_at) && <RenewalWarning renewsAt={sub.renews_at!} />}
      {WAITING[sub.status] && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {WAITING[sub.status]}
        </Alert>
      )}
      {graceUntil && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Cancelled at the end of the billing period: the user keeps access until {formatDate(graceUntil)}.
        </Alert>
      )}
      <Field label="Plan">{sub.plan?.name ?? `Plan ${sub.plan_id}`}</Field>
      <Field label="Price">{sub.plan ? priceDisplay(sub.plan) : '—'}</Field>
      <Field label="Status">
        <StatusBadge status={subscriptionBadge(sub.status)} label={statusLabel(sub.status)} />
      </Field>
      <Field label="Managed by">{sub.managed_by === 'platform' ? 'Platform' : 'Self (through the API)'}</Field>
      <Field label="Started">{formatDate(sub.started_at) || '—'}</Field>
      {renewing && sub.renews_at && <Field label="Renews">{formatDate(sub.renews_at)}</Field>}
      {sub.canceled_at && <Field label={graceUntil ? 'Ends' : 'Canceled'}>{formatDate(sub.canceled_at)}</Field>}
    </>
  );
};

/** The user page's subscription: plan, price, status and dates, with the admin's actions. */
export const SubscriptionPanel = ({ user }: { user: UserResource }) => {
  const query = useUserSubscription(user.id);
  const modals = useSubscriptionModals();
  if (user.is_admin) {
    return (
      <Section title="Subscription">
        <Typography color="text.secondary">{MESSAGES.adminNoSubscriptions}</Typography>
      </Section>
    );
  }
  const sub = query.data ?? null;
  const actions = query.isSuccess ? (
    sub ? (
      <>
        <Button variant="outlined" onClick={() => modals.addOrChange(user, sub)}>
          Change Plan
        </Button>
        {sub.status === 'active' && (
          <Button variant="outlined" color="error" onClick={() => modals.cancel(sub)}>
            Cancel Subscription
          </Button>
        )}
        {sub.status === 'canceled' && (
          <Button variant="contained" onClick={() => modals.resume(sub)}>
            Resume Subscription
          </Button>
        )}
      </>
    ) : (
      <Button variant="contained" onClick={() => modals.addOrChange(user, null)}>
        Add Plan
      </Button>
    )
  ) : null;
  return (
    <Section title="Subscription" action={actions}>
      <Loaded query={query}>{(data) => (data ? <Details sub={data} /> : <Typography>This user has no subscription.</Typography>)}</Loaded>
    </Section>
  );
};
