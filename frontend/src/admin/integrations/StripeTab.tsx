import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useQuickNotice } from '../../shared/dialogs';
import { formatDate } from '../../shared/format';
import { STRIPE_PROBLEM_MESSAGES } from '../plans/StripeNotice';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { Loaded } from '../../shared/Loader';
import { useModals } from '../../shared/modals';
import { SETUP_STATUS_KEY } from '../setup/useSetupStatus';
import { integrationKeys, useStripeStatus, type StripeStatus } from './queries';
import { StripeConfigModal } from './StripeConfigModal';
import { CONNECT_CHANNEL, connectMessage, openPopup, type ConnectResult } from './stripe-connect';

/** The Stripe state read again, and the checklist's Stripe step with it. */
const refreshStripe = (client: QueryClient) =>
  Promise.all([integrationKeys.stripe, SETUP_STATUS_KEY].map((queryKey) => client.invalidateQueries({ queryKey })));

/** How often the panel looks whether the admin closed the Connect popup. */
const POPUP_POLL_MS = 500;

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1, borderBottom: '1px solid', borderColor: 'divider', flexWrap: 'wrap' }}>
    <Typography variant="body2" sx={{ width: 160, fontWeight: 600 }} component="dt">
      {label}
    </Typography>
    <Box component="dd" sx={{ m: 0, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      {children}
    </Box>
  </Box>
);

/**
 * Connect in a popup (or this window when popups are blocked): connecting lasts until the popup
 * reports its result or is closed.
 */
const useStripeConnect = () => {
  const client = useQueryClient();
  const alert = useAlert();
  const [connecting, setConnecting] = useState(false);
  const watcher = useRef<number | null>(null);
  const refresh = () => refreshStripe(client);

  const stopWatching = () => {
    if (watcher.current !== null) window.clearInterval(watcher.current);
    watcher.current = null;
  };
  useEffect(() => stopWatching, []);

  // The popup's result (see stripe-connect.ts).
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return undefined;
    const channel = new BroadcastChannel(CONNECT_CHANNEL);
    channel.onmessage = (event: MessageEvent<ConnectResult>) => {
      const result = connectMessage(event.data.status);
      alert.show(result.message, result.error);
      setConnecting(false);
      stopWatching();
      void refreshStripe(client);
    };
    return () => channel.close();
  }, [alert, client]);

  const connect = async () => {
    // Opened within the click, so the browser allows it; the address follows.
    const popup = openPopup();
    setConnecting(true);
    try {
      const { url } = (await api.get<{ url: string }>('admin/stripe/auth-url')).data;
      if (!popup) {
        window.location.assign(url);
        return;
      }
      popup.location.href = url;
      stopWatching();
      watcher.current = window.setInterval(() => {
        if (!popup.closed) return;
        stopWatching();
        setConnecting(false);
        void refresh();
      }, POPUP_POLL_MS);
    } catch (error) {
      popup?.close();
      setConnecting(false);
      alert.error(error);
    }
  };

  return { connecting, connect };
};

/** What is saved and what is connected. */
const StripeStatusList = ({ status }: { status: StripeStatus }) => (
  <Box component="dl" sx={{ m: 0, mb: 2 }} data-testid="stripe-status">
    <Row label="Credentials">
      <StatusBadge status={status.configured ? 'active' : 'inactive'} label={status.configured ? 'Configured' : 'Not configured'} />
      {status.publishable_key && (
        <Typography variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
          {status.publishable_key}
        </Typography>
      )}
      {status.configured && status.problem && (
        <Typography variant="body2" color="error" data-testid="stripe-problem">
          {STRIPE_PROBLEM_MESSAGES[status.problem]}
        </Typography>
      )}
    </Row>
    <Row label="Connected account">
      <StatusBadge status={status.connected ? 'active' : 'inactive'} label={status.connected ? 'Connected' : 'Not connected'} />
      {status.connected && (
        <Typography variant="body2" color="text.secondary">
          <span style={{ fontFamily: 'monospace' }}>{status.account_id}</span>
          {status.connected_at ? ` since ${formatDate(status.connected_at)}` : ''}
        </Typography>
      )}
    </Row>
  </Box>
);

const StripePanel = ({ status }: { status: StripeStatus }) => {
  const client = useQueryClient();
  const alert = useAlert();
  const modals = useModals();
  const notice = useQuickNotice();
  const { connecting, connect } = useStripeConnect();
  const refresh = () => refreshStripe(client);

  const disconnect = () =>
    notice({
      header: 'Disconnect Stripe',
      message: 'Users cannot pay until a Stripe account is connected again. Existing subscriptions stay in your Stripe account.',
      confirmText: 'Disconnect',
      danger: true,
      onConfirm: async () => {
        const res = await api.post('admin/stripe/disconnect');
        alert.success(res.message ?? '');
        await refresh();
      },
    });

  const editCredentials = () =>
    modals.open({ name: 'update-stripe-config', title: 'Update Stripe Credentials', render: ({ close }) => <StripeConfigModal close={close} /> });

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h6" component="h2">
        Stripe
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Stripe takes your users&apos; card payments. Save your platform&apos;s API keys, then connect the Stripe account that receives the payments.
      </Typography>
      <StripeStatusList status={status} />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Button variant={status.configured ? 'outlined' : 'contained'} onClick={editCredentials}>
          Update credentials
        </Button>
        {status.connected ? (
          <Button color="error" variant="outlined" onClick={disconnect}>
            Disconnect
          </Button>
        ) : (
          <Button variant="contained" onClick={() => void connect()} disabled={!status.configured || !status.client_id || connecting}>
            {connecting ? 'Connecting...' : 'Connect'}
          </Button>
        )}
        {!status.connected && (!status.configured || !status.client_id) && (
          <Typography variant="body2" color="text.secondary">
            Save the secret key, publishable key and client ID first.
          </Typography>
        )}
        {connecting && (
          <Typography variant="body2" color="text.secondary" role="status">
            Finish in the Stripe window that opened.
          </Typography>
        )}
      </Box>
    </Paper>
  );
};

/** Integrations, tab 0: Stripe credentials and the connected account. */
export const StripeTab = () => {
  const status = useStripeStatus();
  return <Loaded query={status}>{(data) => <StripePanel status={data} />}</Loaded>;
};
