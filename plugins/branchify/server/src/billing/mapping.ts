import { fromMinor, toMinor } from '@branchify/shared';
import type { InvoiceView, SubscriptionView } from './gateway';

const at = (unixSeconds: number | null | undefined): Date | null => (unixSeconds ? new Date(unixSeconds * 1000) : null);

export interface LocalState {
  status: 'active' | 'pending' | 'payment_required' | 'failed_renewal' | 'canceled';
  canceled_at: Date | null;
  renews_at: Date | null;
  cancel_at_period_end: boolean;
}

/**
 * Stripe's subscription state → ours. Pure, so the webhook path and the API path
 * converge on the same answer from the same Stripe object. Access needs a paid invoice: Stripe
 * creating a subscription is never enough.
 */
export const localState = (sub: SubscriptionView, now: Date = new Date()): LocalState => {
  const renews = at(sub.current_period_end);
  const invoice = sub.latest_invoice;
  const invoiceSettled = !invoice || invoice.status === 'paid' || invoice.total === 0;
  switch (sub.status) {
    case 'active':
    case 'trialing':
      if (!invoiceSettled) return { status: awaiting(invoice), canceled_at: null, renews_at: renews, cancel_at_period_end: false };
      if (sub.cancel_at_period_end) return { status: 'canceled', canceled_at: renews ?? now, renews_at: null, cancel_at_period_end: true };
      return { status: 'active', canceled_at: null, renews_at: renews, cancel_at_period_end: false };
    case 'past_due':
    case 'unpaid':
      // Unpaid because of a plan change (not a renewal): the new plan waits for its payment.
      if (!invoiceSettled && invoice?.billing_reason === 'subscription_update') {
        return { status: awaiting(invoice), canceled_at: null, renews_at: renews, cancel_at_period_end: false };
      }
      return { status: 'failed_renewal', canceled_at: null, renews_at: renews, cancel_at_period_end: false };
    case 'incomplete':
    case 'paused':
      return { status: awaiting(invoice), canceled_at: null, renews_at: null, cancel_at_period_end: false };
    default:
      // canceled, incomplete_expired
      return { status: 'canceled', canceled_at: at(sub.ended_at) ?? at(sub.canceled_at) ?? now, renews_at: null, cancel_at_period_end: false };
  }
};

/** An unpaid first invoice: waiting on the bank (3-D Secure) or on a new card. */
const awaiting = (invoice: InvoiceView | null): 'pending' | 'payment_required' =>
  invoice?.payment_intent?.status === 'requires_action' || invoice?.payment_intent?.status === 'processing' ? 'pending' : 'payment_required';

/**
 * An invoice after refunds of `refundedMinor` (minor units, Stripe's count): 'refunded' once the whole
 * total went back, still 'paid' with the refunded amount while only part of it did.
 */
export const refundState = (total: number, refundedMinor: number, currency: string): { status: 'paid' | 'refunded'; amount_refunded: number } => ({
  status: refundedMinor >= toMinor(total, currency) ? 'refunded' : 'paid',
  amount_refunded: fromMinor(refundedMinor, currency),
});
