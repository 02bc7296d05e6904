import { MESSAGES } from '@branchify/shared';
import { validationError } from '../http/errors';
import type { PlanRow } from '../content-types/plan';
import type { UserRecord } from '../content-types/users-permissions';
import type { BillingContext } from './context';
import { customerOf, setCurrent } from './current';
import type { InvoiceView, StripeGateway } from './gateway';
import { handOver, type Handover } from './handover';
import { localState } from './mapping';
import { outcomeOf, type PaymentOutcome } from './outcome';
import { priceOf } from './plans';
import { chargesCard, type Actor } from './policy';
import { serialised } from './customer-lock';

type PaidStart = { paymentMethod: string | null; actor: Actor } & Handover;

/** One sale, once the customer, the card and the price are known. */
interface Sale {
  user: UserRecord;
  plan: PlanRow;
  options: PaidStart;
  customer: string;
  card: string | null;
  price: string;
  /** Names the intent (user, plan, the subscription it replaces, the card) in idempotency keys. */
  intent: string;
  metadata: Record<string, string>;
}

/**
 * Starts a paid plan for a user: a Stripe subscription, or a one-time invoice. The user's own
 * start charges their card; an admin's leaves the first invoice open for the user to pay. The
 * idempotency key names the intent (user, plan, the subscription it replaces, the card), so the
 * same request sent twice is one purchase at Stripe.
 */
export const startPaid = async (ctx: BillingContext, user: UserRecord, plan: PlanRow, options: PaidStart): Promise<PaymentOutcome> => {
  const outcome = await chargeOrInvoice(ctx, user, plan, options);
  // Nothing was charged: an unpaid invoice is waiting for the user, not a decline.
  return !chargesCard(options.actor) && outcome.kind === 'declined' ? { ...outcome, kind: 'awaiting_payment' } : outcome;
};

const chargeOrInvoice = async (ctx: BillingContext, user: UserRecord, plan: PlanRow, options: PaidStart): Promise<PaymentOutcome> => {
  const g = await ctx.gateway();
  const charge = chargesCard(options.actor);
  return ctx.stripeCall(async () => {
    const customer = await customerOf(ctx, user, g);
    return serialised(customer, async () => {
      let card: string | null = null;
      if (charge) {
        card = options.paymentMethod ? (await g.attachDefaultCard(customer, options.paymentMethod)).id : ((await g.defaultCard(customer))?.id ?? null);
        if (!card) throw validationError({ payment_method_id: [MESSAGES.paymentMethodRequired] });
      }
      const price = await priceOf(ctx, plan, g);
      const intent = `${user.id}:${plan.id}:${options.replaces?.id ?? 0}:${card ?? 'no-card'}`;
      const metadata = { branchify_user_id: String(user.id), branchify_plan_id: String(plan.id) };
      const sale: Sale = { user, plan, options, customer, card, price, intent, metadata };
      return plan.payment_schedule === 'one-time' ? startOneTime(ctx, g, sale) : startRecurring(ctx, g, sale);
    });
  });
};

/** A one-time purchase: a pending row, then an invoice paid now (or left open), then the row's state. */
const startOneTime = async (
  ctx: BillingContext,
  g: StripeGateway,
  { user, plan, options, customer, card, price, intent, metadata }: Sale,
): Promise<PaymentOutcome> => {
  const row = await ctx.subscriptions().create({
    data: {
      user_id: user.id,
      plan_id: plan.id,
      status: 'pending',
      managed_by: 'platform',
      started_at: new Date(),
      payment_method_id: card,
      stripe_customer_id: customer,
    },
  });
  let invoice: InvoiceView;
  try {
    invoice = await g.createOneTimeInvoice({
      customer,
      price,
      currency: plan.currency,
      paymentMethod: card,
      charge: Boolean(card),
      metadata,
      idempotencyKey: `one-time:${intent}`,
    });
  } catch (error) {
    // Stripe failed or timed out: leave nothing half-written behind.
    await ctx.subscriptions().delete({ where: { id: row.id } });
    throw error;
  }
  await ctx.sync().invoice(invoice, { userId: user.id, subscriptionId: row.id });
  const status = invoice.status === 'paid' ? 'active' : invoice.payment_intent?.status === 'requires_action' ? 'pending' : 'payment_required';
  try {
    const updated = await ctx.activating(async () => {
      const current = await handOver(ctx, options, status === 'payment_required');
      const r = (await ctx.activation.update(row.id, { status }))!;
      if (current) await setCurrent(ctx, user.id, row.id);
      return r;
    });
    return outcomeOf(updated, invoice);
  } catch (error) {
    await ctx.subscriptions().delete({ where: { id: row.id } });
    throw error;
  }
};

/** A recurring plan: a Stripe subscription, copied here through the sync. */
const startRecurring = async (
  ctx: BillingContext,
  g: StripeGateway,
  { user, plan, options, customer, card, price, intent, metadata }: Sale,
): Promise<PaymentOutcome> => {
  const view = await g.createSubscription({ customer, price, paymentMethod: card, metadata, idempotencyKey: `subscription:${intent}` });
  const declined = localState(view).status === 'payment_required';
  const row = await ctx.activating(async () => {
    const current = await handOver(ctx, options, declined);
    return (await ctx.sync().subscription(view, { userId: user.id, planId: plan.id, makeCurrent: current }))!;
  });
  if (card) await ctx.subscriptions().update({ where: { id: row.id }, data: { payment_method_id: card } });
  return outcomeOf(row, view.latest_invoice);
};

/**
 * A subscription active at once, with no payment here: a free plan, or a self-managed plan the
 * integrator bills (with the end of the period it paid for, when it says).
 */
export const startFree = async (
  ctx: BillingContext,
  user: UserRecord,
  plan: PlanRow,
  handover: Handover,
  selfManaged: { renews_at: Date | null } | null = null,
): Promise<PaymentOutcome> =>
  ctx.activating(async () => {
    await handOver(ctx, handover, false);
    const row = await ctx.activation.create({
      user_id: user.id,
      plan_id: plan.id,
      status: 'active',
      managed_by: selfManaged ? 'self' : 'platform',
      started_at: new Date(),
      ...(selfManaged ? { renews_at: selfManaged.renews_at } : {}),
    });
    await setCurrent(ctx, user.id, row.id);
    return { kind: 'active', subscription: row };
  });
