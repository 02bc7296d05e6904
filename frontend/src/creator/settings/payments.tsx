import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type SubscriptionResource } from '@branchify/shared';
import { ApiError, type Envelope } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { keys } from '../../shared/data/keys';
import { useModals } from '../../shared/modals';
import { STRIPE_CARD_TITLE, StripeCardModal, confirmCardAction } from './stripe';

/** What a subscribe/change/pay call answers: the subscription, or what 3-D Secure needs (202). */
export type PaymentAnswer = SubscriptionResource | { requires_action: true; client_secret: string | null; subscription: SubscriptionResource };

/** A message (or two) with Cancel and one action that closes the modal, then runs. */
const MessageWithAction = ({
  messages,
  actionText,
  onAction,
  close,
}: {
  messages: readonly string[];
  actionText: string;
  onAction: () => void;
  close: () => void;
}) => (
  <>
    <DialogContent sx={{ pt: 0 }}>
      {messages.map((text, i) => (
        <DialogContentText key={i} sx={i ? { mt: 1 } : undefined}>
          {text}
        </DialogContentText>
      ))}
    </DialogContent>
    <DialogActions>
      <Button onClick={close}>Cancel</Button>
      <Button
        variant="contained"
        onClick={() => {
          close();
          onAction();
        }}
      >
        {actionText}
      </Button>
    </DialogActions>
  </>
);

/** Confirm Subscription (customer): title, message and card info from the caller; Cancel / Confirm. */
const ConfirmModal = ({ message, cardInfo, onConfirm, close }: { message: string; cardInfo?: string; onConfirm: () => void; close: () => void }) => (
  <MessageWithAction messages={cardInfo ? [message, cardInfo] : [message]} actionText="Confirm" onAction={onConfirm} close={close} />
);

/** attempted-payment-failure: the message (default: the spec's decline text); Cancel / 'Add New Card'. */
const PaymentFailedModal = ({ message, onRetry, close }: { message?: string; onRetry: () => void; close: () => void }) => (
  <MessageWithAction messages={[message || MESSAGES.paymentDeclined]} actionText="Add New Card" onAction={onRetry} close={close} />
);

/**
 * The payment flow shared by select-plan, invoices/pay and pending: run the call; 3-D Secure →
 * stripe.confirmCardPayment with the client_secret; declined (402) → payment-failed modal whose
 * 'Add New Card' opens the stripe-card modal and then retries.
 */
export const usePayments = () => {
  const modals = useModals();
  const alert = useAlert();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  const openCard = (onSuccess?: () => void) =>
    modals.open({ name: 'stripe-card', title: STRIPE_CARD_TITLE, render: ({ close }) => <StripeCardModal close={close} onSuccess={onSuccess} /> });

  const confirm = (title: string, message: string, cardInfo: string | undefined, onConfirm: () => void) =>
    modals.open({
      name: 'create-or-change-subscription-by-user',
      title,
      maxWidth: 'xs',
      render: ({ close }) => <ConfirmModal message={message} cardInfo={cardInfo} onConfirm={onConfirm} close={close} />,
    });

  const pay = async (call: () => Promise<Envelope<PaymentAnswer>>, onDone: () => void | Promise<void>): Promise<void> => {
    setBusy(true);
    try {
      const res = await call();
      const data = res.data;
      if (data && 'requires_action' in data && data.requires_action) {
        if (!data.client_secret) throw new Error(MESSAGES.paymentActionRequired);
        await confirmCardAction(data.client_secret);
      } else {
        alert.success(res.message ?? '');
      }
      // The subscription, its invoices and the card may all have changed.
      await client.invalidateQueries({ queryKey: keys.billing.all });
      await onDone();
    } catch (error) {
      if (error instanceof ApiError && error.status === 402) {
        modals.open({
          name: 'attempted-payment-failure',
          title: 'Payment Failed',
          maxWidth: 'xs',
          render: ({ close }) => <PaymentFailedModal message={error.message} close={close} onRetry={() => openCard(() => void pay(call, onDone))} />,
        });
      } else {
        alert.error(error);
      }
    } finally {
      setBusy(false);
    }
  };

  return { pay, confirm, openCard, busy };
};
