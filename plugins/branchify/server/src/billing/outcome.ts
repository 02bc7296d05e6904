import type { SubscriptionRow } from '../content-types/subscription';
import type { InvoiceView } from './gateway';

/** What a subscribe/pay call ended in, for the controller to answer. */
export type PaymentOutcome =
  | { kind: 'active'; subscription: SubscriptionRow }
  | { kind: 'requires_action'; subscription: SubscriptionRow; client_secret: string | null; payment_intent: string | null }
  | { kind: 'declined'; subscription: SubscriptionRow }
  | { kind: 'awaiting_payment'; subscription: SubscriptionRow };

/** The outcome a row and the invoice that paid (or did not pay) for it stand for. */
export const outcomeOf = (row: SubscriptionRow, invoice: InvoiceView | null): PaymentOutcome => {
  if (row.status === 'active') return { kind: 'active', subscription: row };
  if (row.status === 'pending' || invoice?.payment_intent?.status === 'requires_action') {
    return {
      kind: 'requires_action',
      subscription: row,
      client_secret: invoice?.payment_intent?.client_secret ?? null,
      payment_intent: invoice?.payment_intent?.id ?? null,
    };
  }
  return invoice?.payment_intent && invoice.payment_intent.status === 'requires_payment_method'
    ? { kind: 'declined', subscription: row }
    : { kind: 'awaiting_payment', subscription: row };
};
