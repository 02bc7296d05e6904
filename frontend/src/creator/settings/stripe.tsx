import { useState } from 'react';
// The /pure entry adds Stripe.js to the page when a card is asked for, not when this module loads.
import { loadStripe } from '@stripe/stripe-js/pure';
import type { Stripe } from '@stripe/stripe-js';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type StripeIntegrationResource } from '@branchify/shared';
import { api, errorMessage } from '../../shared/api';
import { queryClient } from '../../shared/data/client';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { Loaded } from '../../shared/Loader';

/** Stripe.js for the install's publishable key and connected account, loaded once. */
let stripePromise: Promise<Stripe | null> | null = null;
let loadedFor = '';

const getStripe = async (): Promise<Stripe> => {
  const integration = await queryClient.fetchQuery({
    queryKey: keys.billing.stripeIntegration,
    queryFn: async () => (await api.get<StripeIntegrationResource>('users/subscriptions/stripe-integration')).data,
  });
  if (!integration.integrated || !integration.publishable_key) throw new Error(MESSAGES.paymentsNotConfigured);
  const key = `${integration.publishable_key}|${integration.account_id ?? ''}`;
  if (!stripePromise || loadedFor !== key) {
    loadedFor = key;
    stripePromise = loadStripe(integration.publishable_key, integration.account_id ? { stripeAccount: integration.account_id } : undefined).catch(() => null);
  }
  const stripe = await stripePromise;
  if (!stripe) {
    stripePromise = null;
    throw new Error(MESSAGES.stripeLoadFailed);
  }
  return stripe;
};

/** 3-D Secure: confirms the payment intent the API answered 202 with. */
export const confirmCardAction = async (clientSecret: string): Promise<void> => {
  const stripe = await getStripe();
  const result = await stripe.confirmCardPayment(clientSecret);
  if (result.error) throw new Error(result.error.message ?? MESSAGES.paymentDeclined);
};

const CardForm = ({ close, onSuccess }: { close: () => void; onSuccess?: () => void }) => {
  const stripe = useStripe();
  const elements = useElements();
  const [processing, setProcessing] = useState(false);
  const saveCard = useApiMutation({
    mutationFn: (payment_method_id: string) => api.put('payment-method', { payment_method_id }),
    invalidates: [keys.billing.paymentMethod],
  });
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!stripe) return setError(MESSAGES.stripeNotInitialized);
    const card = elements?.getElement(CardElement);
    if (!card) return setError(MESSAGES.cardElementNotInitialized);
    setProcessing(true);
    try {
      const result = await stripe.createPaymentMethod({ type: 'card', card });
      if (result.error || !result.paymentMethod) throw new Error(result.error?.message ?? MESSAGES.genericFailure);
      await saveCard.mutateAsync(result.paymentMethod.id);
      close();
      onSuccess?.();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setProcessing(false);
    }
  };
  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }} data-testid="card-element">
          <CardElement options={{ hidePostalCode: true }} />
        </Box>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={processing}>
          {processing ? 'Processing...' : 'Save card'}
        </Button>
      </DialogActions>
    </Box>
  );
};

/** stripe-card: 'Add your credit card'; creates a payment method and makes it the default. */
export const StripeCardModal = ({ close, onSuccess }: { close: () => void; onSuccess?: () => void }) => {
  const stripe = useQuery({ queryKey: ['stripe-js'], queryFn: getStripe, retry: false, staleTime: Number.POSITIVE_INFINITY, gcTime: Number.POSITIVE_INFINITY });
  return (
    <Loaded query={stripe}>
      {(stripe) => (
        <Elements stripe={stripe}>
          <CardForm close={close} onSuccess={onSuccess} />
        </Elements>
      )}
    </Loaded>
  );
};

export const STRIPE_CARD_TITLE = 'Add your credit card';
