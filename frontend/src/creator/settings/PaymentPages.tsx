import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { InvoiceResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { usePaymentMethod, useInvoices } from '../../shared/data/queries';
import { useCustomization } from '../../shared/customization';
import { formatDate, formatMoney } from '../../shared/format';
import { Loaded, type QueryLike } from '../../shared/Loader';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import { usePageTitle } from '../../shared/usePageTitle';
import { afterLoginRoute } from '../guard';
import { usePayments, type PaymentAnswer } from './payments';

const OPEN = ['open', 'failed', 'unpaid', 'pending', 'draft'];
/** How often, and how many times, the pending page looks for the bank's answer (2 minutes). */
const PENDING_POLL_MS = 2000;
const PENDING_POLLS = 60;

const Frame = ({ title, children }: { title: string; children: React.ReactNode }) => {
  const { customization } = useCustomization();
  usePageTitle(title, customization.app_name);
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Paper sx={{ p: 4, width: 'min(520px, 100%)' }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
};

/** The open invoice of the user's subscription and the card on file, as one query for `Loaded`. */
const useOutstanding = () => {
  const { subscription } = useSession();
  const invoices = useInvoices(subscription?.id);
  const card = usePaymentMethod();
  const outstanding: QueryLike<{ invoice: InvoiceResource | null; card: typeof card.data | null }> = {
    isPending: (Boolean(subscription) && invoices.isPending) || card.isPending,
    // No card (or payments not set up) is not a failure here.
    isError: invoices.isError,
    error: invoices.error,
    data: { invoice: invoices.data?.find((i) => OPEN.includes(i.status)) ?? null, card: card.data ?? null },
    refetch: () => Promise.all([invoices.refetch(), card.refetch()]),
  };
  return outstanding;
};

/** PayOutstandingInvoice (/invoices/pay): payment_required or failed_renewal. */
export const PayInvoicePage = () => {
  const session = useSession();
  const navigate = useNavigate();
  const payments = usePayments();
  const outstanding = useOutstanding();
  const sub = session.subscription;
  const finish = async () => {
    const fresh = await session.refresh();
    navigate(fresh ? afterLoginRoute(fresh.user, fresh.subscription) : ROUTES.UserLogin, { replace: true });
  };
  return (
    <Frame title="Payment required">
      <Loaded query={outstanding}>
        {({ invoice, card }) => (
          <>
            <Typography sx={{ mb: 2 }}>
              {sub?.status === 'failed_renewal' ? 'We could not renew your subscription.' : 'Your subscription is waiting for payment.'}
              {sub?.plan ? ` Plan: ${sub.plan.name}.` : ''}
            </Typography>
            {invoice ? (
              <Alert severity="info" sx={{ mb: 2 }} data-testid="outstanding-invoice">
                {formatMoney(invoice.amount, invoice.currency)} due since {formatDate(invoice.created_at)}
              </Alert>
            ) : (
              <Alert severity="info" sx={{ mb: 2 }}>
                No open invoice was found.
              </Alert>
            )}
            <Typography variant="body2" sx={{ mb: 2 }}>
              {card ? `Card on file: ${card.brand} ending in ${card.last4}` : 'No card on file.'}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              {invoice && sub && (
                <Button
                  variant="contained"
                  disabled={payments.busy}
                  onClick={() => {
                    const run = () =>
                      void payments.pay(
                        () => api.post<PaymentAnswer>(`users/subscriptions/${sub.id}/invoices/pay`, { invoice_id: invoice.invoice_id }),
                        finish,
                      );
                    if (card) run();
                    else payments.openCard(run);
                  }}
                >
                  Pay {formatMoney(invoice.amount, invoice.currency)}
                </Button>
              )}
              <Button onClick={() => payments.openCard()}>{card ? 'Use another card' : 'Add card'}</Button>
              <Button component={RouterLink} to={ROUTES.SelectSubscriptionPlan}>
                Choose another plan
              </Button>
            </Box>
          </>
        )}
      </Loaded>
    </Frame>
  );
};

/** PendingSubscription (/settings/subscriptions/pending): waiting for the bank (3-D Secure). */
export const PendingSubscriptionPage = () => {
  const session = useSession();
  const navigate = useNavigate();
  const payments = usePayments();
  const outstanding = useOutstanding();
  const sub = session.subscription;
  useEffect(() => {
    if (sub && sub.status !== 'pending') navigate(afterLoginRoute(session.user!, sub), { replace: true });
  }, [sub, session.user, navigate]);
  const check = async () => {
    const fresh = await session.refresh();
    if (fresh && fresh.subscription?.status !== 'pending') navigate(afterLoginRoute(fresh.user, fresh.subscription), { replace: true });
  };
  // The bank's answer reaches us through Stripe's webhooks, moments after the user confirmed
  // (3-D Secure): keep looking for a while rather than leave them on this page until they click.
  const pending = sub?.status === 'pending';
  const { refresh } = session;
  useEffect(() => {
    if (!pending) return undefined;
    let tries = 0;
    const timer = window.setInterval(() => {
      tries += 1;
      if (tries >= PENDING_POLLS) window.clearInterval(timer);
      void refresh();
    }, PENDING_POLL_MS);
    return () => window.clearInterval(timer);
  }, [pending, refresh]);
  return (
    <Frame title="Payment pending">
      <Typography sx={{ mb: 2 }}>Your payment needs to be confirmed with your bank before your subscription starts.</Typography>
      <Loaded query={outstanding}>
        {({ invoice }) => (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {invoice && sub && (
              <Button
                variant="contained"
                disabled={payments.busy}
                onClick={() =>
                  void payments.pay(() => api.post<PaymentAnswer>(`users/subscriptions/${sub.id}/invoices/pay`, { invoice_id: invoice.invoice_id }), check)
                }
              >
                Confirm payment
              </Button>
            )}
            <Button onClick={() => void check()}>Check again</Button>
            <Button component={RouterLink} to={ROUTES.SelectSubscriptionPlan}>
              Choose another plan
            </Button>
          </Box>
        )}
      </Loaded>
    </Frame>
  );
};
