import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DefaultValues } from 'react-hook-form';
import Box from '@mui/material/Box';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import CheckIcon from '@mui/icons-material/Check';
import { stripeConfigSchema } from '@branchify/shared';
import type { z } from 'zod';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { FormPasswordInput, FormTextInput, useApiForm } from '../../shared/form';
import { TextInput } from '../../shared/inputs/TextInput';
import { Loaded } from '../../shared/Loader';
import { SETUP_STATUS_KEY } from '../setup/useSetupStatus';
import { integrationKeys, useStripeConfig, type StripeConfig } from './queries';
import { FormDialogActions } from '../../shared/FormDialogActions';

/** 'Copied' shows for 1500 ms. */
const COPIED_MS = 1500;

/** A masked secret is replaced as a whole: focusing it selects it, so typing overwrites it. */
const selectAll = (event: React.FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => {
  if (event.target.value.includes('****')) event.target.select();
};

/** A read-only address to paste into Stripe, with a button that copies it ('Copied' for a moment). */
const CopyableUrl = ({ name, label, value, help, copyLabel }: { name: string; label: string; value: string; help: string; copyLabel: string }) => {
  const [copied, setCopied] = useState(false);
  return (
    <TextInput
      name={name}
      label={label}
      value={value}
      onChange={() => undefined}
      helperText={copied ? 'Copied' : help}
      slotProps={{
        htmlInput: { readOnly: true },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={copyLabel}
                edge="end"
                onClick={() => {
                  void navigator.clipboard?.writeText(value).then(() => {
                    setCopied(true);
                    window.setTimeout(() => setCopied(false), COPIED_MS);
                  });
                }}
              >
                {copied ? <CheckIcon /> : <ContentCopyIcon />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
};

/** Where Stripe sends its events, and which ones to select when adding the endpoint there. */
const WebhookEndpoint = ({ url, events }: { url: string; events: readonly string[] }) => (
  <Box component="section" aria-labelledby="stripe-webhook-title" data-testid="stripe-webhook" sx={{ mt: 2 }}>
    <Typography id="stripe-webhook-title" component="h3" variant="subtitle2">
      Webhook
    </Typography>
    <Typography variant="body2" color="text.secondary">
      In Stripe (Developers → Webhooks), add an endpoint with this URL that listens to events on your account and on connected accounts, then paste its signing
      secret below.
    </Typography>
    <CopyableUrl name="webhook_url" label="Webhook endpoint URL" value={url} help="Read-only. The address of this installation." copyLabel="Copy webhook URL" />
    <Typography id="stripe-webhook-events" variant="body2" sx={{ fontWeight: 600 }}>
      Events to select
    </Typography>
    <Box
      component="ul"
      aria-labelledby="stripe-webhook-events"
      sx={{ m: 0, mt: 0.5, pl: 3, columns: { sm: 2 }, fontFamily: 'monospace', fontSize: '0.8125rem' }}
    >
      {events.map((event) => (
        <li key={event}>{event}</li>
      ))}
    </Box>
  </Box>
);

type StripeConfigForm = z.input<typeof stripeConfigSchema>;

const StripeConfigForm = ({ config, close }: { config: StripeConfig; close: () => void }) => {
  const client = useQueryClient();
  const form = useApiForm(stripeConfigSchema, config as DefaultValues<StripeConfigForm>);
  const save = useApiMutation({
    mutationFn: (body: unknown) => api.put('admin/stripe/config', body),
    // The checklist's Stripe step is ticked once the keys work.
    invalidates: [integrationKeys.stripe, SETUP_STATUS_KEY],
    onSuccess: () => {
      client.removeQueries({ queryKey: integrationKeys.stripeConfig, exact: true });
      close();
    },
  });
  const { control } = form;
  return (
    // The record goes back as it was served: masked secrets mean "keep", redirect_url is read-only.
    <Box component="form" noValidate onSubmit={(event) => void form.submit(async () => void (await save.mutateAsync(form.getValues())))(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Typography variant="body2" color="text.secondary">
          From your Stripe dashboard (Developers → API keys, and Settings → Connect for the client ID). Saved secrets are shown masked.
        </Typography>
        <FormTextInput control={control} name="client_id" label="Client ID" helperText="Starts with ca_ (needed to connect an account)." autoComplete="off" />
        <FormPasswordInput
          control={control}
          name="secret"
          label="Secret key"
          helperText={config.has_secret ? 'Saved. Leave the masked value to keep it, or type a new key.' : 'Starts with sk_ or rk_.'}
          autoComplete="off"
          onFocus={selectAll}
        />
        <FormTextInput control={control} name="publishable_key" label="Publishable key" helperText="Starts with pk_." autoComplete="off" />
        <WebhookEndpoint url={config.webhook_url} events={config.webhook_events} />
        <FormPasswordInput
          control={control}
          name="webhook_secret"
          label="Webhook signing secret"
          helperText={config.has_webhook_secret ? 'Saved. Leave the masked value to keep it, or type a new secret.' : 'Starts with whsec_.'}
          autoComplete="off"
          onFocus={selectAll}
        />
        <CopyableUrl
          name="redirect_url"
          label="Redirect URL"
          value={config.redirect_url}
          help="Read-only. Add it to your Stripe Connect settings as the redirect URI."
          copyLabel="Copy redirect URL"
        />
      </DialogContent>
      <FormDialogActions onCancel={close} label="Save" disabled={form.submitting} />
    </Box>
  );
};

/** update-stripe-config: the platform's Stripe credentials; the redirect URL is read-only. */
export const StripeConfigModal = ({ close }: { close: () => void }) => {
  const config = useStripeConfig();
  return <Loaded query={config}>{(data) => <StripeConfigForm config={data} close={close} />}</Loaded>;
};
