import { AdminTitle } from '../layout/AdminTitle';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useAlert } from '../../shared/alerts';
import { EmailTab } from './EmailTab';
import { StripeTab } from './StripeTab';
import { connectMessage, reportToOpener } from './stripe-connect';

const TABS = [
  { label: 'Stripe', panel: <StripeTab /> },
  { label: 'Email', panel: <EmailTab /> },
];

/**
 * Integrations (/admin/integrations?tab=0|1): the `tab` query selects the tab and follows it, so
 * the mail banner's link (tab=1) and the Stripe callback (tab=0&stripe=…) open the right one.
 */
export const IntegrationsPage = () => {
  const [params, setParams] = useSearchParams();
  const alert = useAlert();
  const requested = Number(params.get('tab') ?? 0);
  const tab = Number.isInteger(requested) && requested >= 0 && requested < TABS.length ? requested : 0;
  const stripeResult = params.get('stripe');

  // Back from Stripe Connect: tell the panel that opened the popup, close, or show it here.
  useEffect(() => {
    if (!stripeResult) return;
    const result = connectMessage(stripeResult);
    reportToOpener(stripeResult);
    alert.show(result.message, result.error);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('stripe');
        return next;
      },
      { replace: true },
    );
  }, [stripeResult, alert, setParams]);

  return (
    <Box sx={{ py: 2, maxWidth: 960 }}>
      <AdminTitle title="Integrations" />
      <Typography variant="h5" component="h1">
        Integrations
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Payments and email for your users.
      </Typography>
      <Tabs
        value={tab}
        onChange={(_e, value: number) => setParams({ tab: String(value) })}
        aria-label="Integrations"
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        {TABS.map((t, index) => (
          <Tab key={t.label} label={t.label} id={`integrations-tab-${index}`} aria-controls={`integrations-panel-${index}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`integrations-panel-${tab}`} aria-labelledby={`integrations-tab-${tab}`}>
        {TABS[tab].panel}
      </Box>
    </Box>
  );
};
