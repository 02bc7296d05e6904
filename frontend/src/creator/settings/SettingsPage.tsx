import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router-dom';
import type { SubscriptionResource } from '@branchify/shared';
import { errorMessage } from '../../shared/api';
import { useInvoiceHistory, usePaymentMethod, useStripeIntegration } from '../../shared/data/queries';
import { InvoiceTable } from '../../shared/InvoiceTable';
import { useCustomization } from '../../shared/customization';
import { daysUntil, formatDate, isNearRenewal, planPrice } from '../../shared/format';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { Loader } from '../../shared/Loader';
import { useModals } from '../../shared/modals';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import { usePageTitle } from '../../shared/usePageTitle';
import { PageHeader } from '../layout/UserLayout';
import { CancelSubscriptionModal, ChangePasswordModal } from './SettingsModals';
import { usePayments } from './payments';
import { EndedByAdminNotice, ResumeButton, endedByAdmin, userMayResume } from '../billing/ended';

const Section = ({ title, children, action }: { title: string; children: React.ReactNode; action?: React.ReactNode }) => (
  <Paper component="section" aria-label={title} sx={{ p: 3, mb: 3 }}>
    <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 2, flexWrap: 'wrap' }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1 }}>{action}</Box>
    </Box>
    {children}
  </Paper>
);

/** A label and its value side by side (a narrower label column on a phone); a long value, such as an email, wraps. */
const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '88px minmax(0, 1fr)', sm: '160px minmax(0, 1fr)' }, columnGap: 2, py: 0.75 }}>
    <Typography color="text.secondary">{label}</Typography>
    <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
  </Box>
);

const subscriptionBadge = (s: SubscriptionResource) => (s.status === 'active' ? 'active' : s.status === 'canceled' ? 'in-active' : 'suspended');

/** What the user can do with a subscription the app manages: change or cancel it, resume it, pay what is due. */
const SubscriptionActions = ({ sub }: { sub: SubscriptionResource }) => {
  const modals = useModals();
  const navigate = useNavigate();
  return (
    <>
      {sub.status === 'active' && (
        <>
          <Button onClick={() => navigate(ROUTES.SelectSubscriptionPlan)}>Change plan</Button>
          <Button
            color="error"
            onClick={() =>
              modals.open({
                name: 'cancel-subscription-by-user',
                title: 'Cancel subscription',
                render: ({ close }) => <CancelSubscriptionModal subscription={sub} close={close} />,
              })
            }
          >
            Cancel
          </Button>
        </>
      )}
      {userMayResume(sub) && <ResumeButton sub={sub} />}
      {(sub.status === 'payment_required' || sub.status === 'failed_renewal') && (
        <Button variant="contained" onClick={() => navigate(ROUTES.PayOutstandingInvoice)}>
          Pay now
        </Button>
      )}
    </>
  );
};

const SubscriptionSection = () => {
  const session = useSession();
  const navigate = useNavigate();
  const sub = session.subscription;
  if (!sub) {
    return (
      <Section
        title="Subscription"
        action={
          <Button variant="contained" onClick={() => navigate(ROUTES.SelectSubscriptionPlan)}>
            Choose a plan
          </Button>
        }
      >
        <Typography>You don't have a subscription yet.</Typography>
      </Section>
    );
  }
  const platform = sub.managed_by === 'platform';
  const days = daysUntil(sub.renews_at);
  const graceEnds = sub.status === 'canceled' && sub.canceled_at && new Date(sub.canceled_at).getTime() > Date.now() ? sub.canceled_at : null;
  return (
    <Section title="Subscription" action={platform && <SubscriptionActions sub={sub} />}>
      {sub.status === 'active' && isNearRenewal(sub.renews_at) && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="renewal-warning">
          Your subscription renews {days === 0 ? 'today' : `in ${days} day${days === 1 ? '' : 's'}`}, on {formatDate(sub.renews_at)}.
        </Alert>
      )}
      {endedByAdmin(sub) && <EndedByAdminNotice />}
      {graceEnds && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Your subscription is canceled and stays usable until {formatDate(graceEnds)}.
        </Alert>
      )}
      {!platform && (
        <Alert severity="info" sx={{ mb: 2 }}>
          This subscription is managed outside this app and can only be changed through the API.
        </Alert>
      )}
      <Row label="Plan">{sub.plan?.name ?? '—'}</Row>
      <Row label="Price">{sub.plan ? planPrice(sub.plan) : '—'}</Row>
      <Row label="Status">
        <StatusBadge status={subscriptionBadge(sub)} label={sub.status.replace('_', ' ')} />
      </Row>
      {sub.started_at && <Row label="Started">{formatDate(sub.started_at)}</Row>}
      {sub.renews_at && sub.status === 'active' && <Row label="Renews">{formatDate(sub.renews_at)}</Row>}
    </Section>
  );
};

const BillingSections = () => {
  const payments = usePayments();
  const integrationQuery = useStripeIntegration();
  const integration = integrationQuery.data;
  const cardQuery = usePaymentMethod(Boolean(integration?.integrated));
  const card = cardQuery.data ?? null;
  const invoicesQuery = useInvoiceHistory();
  const invoices = invoicesQuery.data ?? [];
  const failed = [integrationQuery, invoicesQuery].find((q) => q.isError);
  if (integrationQuery.isPending || (integration?.integrated && cardQuery.isPending) || invoicesQuery.isPending) return <Loader />;
  if (failed) return <Loader error={errorMessage(failed.error)} onRetry={() => void failed.refetch()} />;
  return (
    <>
      {integration?.integrated && (
        <Section title="Payment method" action={<Button onClick={() => payments.openCard()}>{card ? 'Change card' : 'Add card'}</Button>}>
          {card ? (
            <Typography data-testid="card-on-file">
              {(card.brand ?? 'card').toUpperCase()} ending in {card.last4} · expires {String(card.exp_month).padStart(2, '0')}/{card.exp_year}
            </Typography>
          ) : (
            <Typography>No card on file.</Typography>
          )}
        </Section>
      )}
      <Section title="Invoices">
        <InvoiceTable invoices={invoices} />
      </Section>
    </>
  );
};

/** UserSettings: profile, password, subscription, payment method and invoices. */
export const SettingsPage = () => {
  const { customization } = useCustomization();
  usePageTitle('Settings', customization.app_name);
  const { user } = useSession();
  const modals = useModals();
  if (!user) return null;
  return (
    <>
      <PageHeader title="Settings" />
      <Section
        title="Profile"
        action={
          <Button
            variant="outlined"
            onClick={() =>
              modals.open({ name: 'change-user-password', title: 'Change password', render: ({ close }) => <ChangePasswordModal close={close} /> })
            }
          >
            Change password
          </Button>
        }
      >
        <Row label="Name">
          {user.first_name} {user.last_name}
        </Row>
        <Row label="Email">{user.email}</Row>
        {user.email_verified_at && <Row label="Verified">{formatDate(user.email_verified_at)}</Row>}
      </Section>
      {!user.is_admin && (
        <>
          <SubscriptionSection />
          <BillingSections />
        </>
      )}
    </>
  );
};
