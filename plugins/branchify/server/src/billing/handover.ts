import type { CanceledBy, SubscriptionRow } from '../content-types/subscription';
import type { InvoiceRow } from '../content-types/invoice';
import type { BillingContext } from './context';
import { serialised } from './customer-lock';

/** What replaces a user's subscription: the row it replaces and whether a declined payment keeps it. */
export interface Handover {
  replaces: SubscriptionRow | null;
  reason: string;
  /** A plan change the user pays for: a declined card leaves them on the plan they had. */
  keepOnDecline: boolean;
}

/**
 * Ends a row here (not at Stripe) before another becomes active: the database holds at most one
 * active subscription per user, so the old one must stop first.
 */
const endLocally = (ctx: BillingContext, row: SubscriptionRow, reason: string, by: CanceledBy) =>
  ctx.activation.update(row.id, { status: 'canceled', canceled_at: new Date(), cancel_at_period_end: false, cancellation_reason: reason, canceled_by: by });

/** The replaced row stops being active; false when a declined change keeps the user on it. */
export const handOver = async (ctx: BillingContext, handover: Handover, declined: boolean): Promise<boolean> => {
  if (declined && handover.keepOnDecline) return false;
  const old = handover.replaces;
  if (old && old.status !== 'canceled') await endLocally(ctx, old, handover.reason, 'system');
  return true;
};

export const openInvoicesOf = async (ctx: BillingContext, row: SubscriptionRow): Promise<InvoiceRow[]> =>
  ctx.invoices().findMany({ where: { subscription_id: row.id, status: 'open' } });

/**
 * What an ended row still holds at Stripe: its live Stripe subscription is cancelled and its open
 * invoices voided, so nothing is charged for it later (best effort: the new state stands).
 */
export const releaseAtStripe = async (ctx: BillingContext, row: SubscriptionRow, liveAtStripe: boolean) => {
  const open = await openInvoicesOf(ctx, row);
  if (!liveAtStripe && open.length === 0) return;
  try {
    const g = await ctx.gateway();
    await serialised(row.stripe_customer_id ?? String(row.id), async () => {
      if (liveAtStripe && row.stripe_subscription_id) await ctx.sync().subscription(await g.cancelNow(row.stripe_subscription_id, `retire:${row.id}`));
      for (const invoice of await openInvoicesOf(ctx, row)) {
        if (invoice.invoice_id) await ctx.sync().invoice(await g.voidInvoice(invoice.invoice_id, `void:${invoice.invoice_id}`));
      }
    });
  } catch (error) {
    ctx.strapi.log.error(`[billing] could not release subscription ${row.id} at Stripe: ${(error as Error).message}`);
  }
};

/** A row nobody pays for any more: ended here, then released at Stripe. */
export const retire = async (ctx: BillingContext, row: SubscriptionRow, reason: string) => {
  const liveAtStripe = Boolean(row.stripe_subscription_id) && row.status !== 'canceled';
  if (row.status !== 'canceled') await endLocally(ctx, row, reason, 'system');
  await releaseAtStripe(ctx, row, liveAtStripe);
};
