import { query, UID, type Strapi } from '../utils/strapi';
import { installId } from '../operations/install-id';
import { INSTALL_METADATA, type InvoiceView, type SubscriptionView } from './gateway';
import { activations } from './activation';
import { fromMinor } from '@branchify/shared';
import { localState } from './mapping';
import { isUniqueViolation } from '../utils/db-errors';
import type { InvoiceRow } from '../content-types/invoice';
import type { SubscriptionRow } from '../content-types/subscription';

/** Rows the system ended (replaced by another plan, given up unpaid): never written from Stripe again. */
const NOT_RETIRED = { $or: [{ status: { $ne: 'canceled' } }, { canceled_by: { $null: true } }, { canceled_by: { $ne: 'system' } }] };

type Activation = ReturnType<typeof activations>;

interface SubscriptionHint {
  userId?: number;
  planId?: number;
  makeCurrent?: boolean;
}

interface InvoiceHint {
  userId?: number;
  subscriptionId?: number;
}

const subscriptions = (strapi: Strapi) => query(strapi, UID.subscription);
const invoices = (strapi: Strapi) => query(strapi, UID.invoice);
const users = (strapi: Strapi) => query(strapi, UID.user);

const userForCustomer = async (strapi: Strapi, customer: string | null): Promise<number | null> => {
  if (!customer) return null;
  const user = await users(strapi).findOne({ where: { stripe_customer_id: customer }, select: ['id'] });
  return user?.id ?? null;
};

const planForPrice = async (strapi: Strapi, price: string | null): Promise<number | null> => {
  if (!price) return null;
  const plan = await query(strapi, UID.plan).findOne({ where: { stripe_price_id: price }, select: ['id'] });
  return plan?.id ?? null;
};

/** Upserts our copy of a Stripe invoice (a refund we recorded is never overwritten). */
const syncInvoice = async (strapi: Strapi, view: InvoiceView, hint: InvoiceHint = {}): Promise<InvoiceRow | null> => {
  const existing = await invoices(strapi).findOne({ where: { invoice_id: view.id } });
  let subscriptionId = existing?.subscription_id ?? hint.subscriptionId ?? null;
  if (!subscriptionId && view.subscription) {
    const sub = await subscriptions(strapi).findOne({ where: { stripe_subscription_id: view.subscription }, select: ['id'] });
    subscriptionId = sub?.id ?? null;
  }
  const userId = existing?.user_id ?? hint.userId ?? (await userForCustomer(strapi, view.customer));
  if (!userId || !(await users(strapi).findOne({ where: { id: userId }, select: ['id'] }))) return null;
  // The plan is the subscription's when the invoice is first recorded: a later plan change leaves it.
  const planId =
    existing?.plan_id ??
    (subscriptionId ? ((await subscriptions(strapi).findOne({ where: { id: subscriptionId }, select: ['id', 'plan_id'] }))?.plan_id ?? null) : null);
  const data = {
    user_id: userId,
    subscription_id: subscriptionId,
    plan_id: planId,
    number: view.number,
    amount: fromMinor(view.total, view.currency),
    currency: view.currency,
    status: existing?.status === 'refunded' ? 'refunded' : view.status,
    paid_at: view.status === 'paid' ? (existing?.paid_at ?? new Date()) : null,
    hosted_invoice_url: view.hosted_invoice_url,
  };
  if (existing) return invoices(strapi).update({ where: { id: existing.id }, data });
  try {
    return await invoices(strapi).create({ data: { ...data, invoice_id: view.id } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = (await invoices(strapi).findOne({ where: { invoice_id: view.id } }))!;
    return invoices(strapi).update({ where: { id: winner.id }, data });
  }
};

/** Upserts the row for a Stripe subscription; returns null when it is not one of ours. */
const syncSubscription = async (
  strapi: Strapi,
  activation: Activation,
  view: SubscriptionView,
  hint: SubscriptionHint = {},
): Promise<SubscriptionRow | null> => {
  const state = localState(view);
  const existing = await subscriptions(strapi).findOne({ where: { stripe_subscription_id: view.id } });
  // Ids in the metadata are this install's only when it made the object (installs may share an account).
  const ours = view.metadata[INSTALL_METADATA] === (await installId(strapi));
  const named = (key: string) => (ours ? Number(view.metadata[key]) || null : null);
  const planId = named('branchify_plan_id') || (await planForPrice(strapi, view.price_id)) || hint.planId || existing?.plan_id;
  const userId = existing?.user_id ?? hint.userId ?? (named('branchify_user_id') || (await userForCustomer(strapi, view.customer)));
  if (!userId || !planId) return null;
  // A deleted user's subscription is not ours any more (Stripe may still send news of it).
  const user = await users(strapi).findOne({ where: { id: userId }, select: ['id', 'subscription_id'] });
  if (!user) return null;
  const data = {
    user_id: userId,
    plan_id: planId,
    status: state.status,
    canceled_at: state.canceled_at,
    renews_at: state.renews_at,
    cancel_at_period_end: state.cancel_at_period_end,
    stripe_customer_id: view.customer,
  };
  let row: SubscriptionRow;
  if (existing) {
    // A row ended here (replaced, given up) stays ended: Stripe, told to cancel it, may answer late.
    row = (await activation.update(existing.id, data, NOT_RETIRED)) ?? existing;
  } else {
    try {
      row = await activation.create({ ...data, managed_by: 'platform', started_at: new Date(), stripe_subscription_id: view.id });
    } catch (error) {
      // The webhook and the API call raced to create it: the other one won; update theirs.
      if (!isUniqueViolation(error)) throw error;
      // A second active row for the user is refused too: that is no race to settle here.
      const winner = await subscriptions(strapi).findOne({ where: { stripe_subscription_id: view.id } });
      if (!winner) throw error;
      row = (await activation.update(winner.id, data, NOT_RETIRED)) ?? winner;
    }
  }
  if ((hint.makeCurrent || !user.subscription_id) && user.subscription_id !== row.id) {
    await users(strapi).update({ where: { id: userId }, data: { subscription_id: row.id } });
  }
  if (view.latest_invoice) await syncInvoice(strapi, view.latest_invoice, { userId, subscriptionId: row.id });
  return row;
};

/**
 * Convergent sync from Stripe objects into our rows, keyed by Stripe ids with unique indexes:
 * the API path and the webhook path call the same functions with a freshly read object, so
 * either order, duplicates and replays end in the same state, and never in two rows.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const activation = activations(strapi);
  return {
    subscription: (view: SubscriptionView, hint?: SubscriptionHint) => syncSubscription(strapi, activation, view, hint),
    invoice: (view: InvoiceView, hint?: InvoiceHint) => syncInvoice(strapi, view, hint),
  };
};
