import { MESSAGES } from '@branchify/shared';
import { badRequest, serviceUnavailable } from '../http/errors';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { activations } from './activation';
import { refundState } from './mapping';
import type { StripeGateway } from './gateway';
import { constructWebhookEvent, type Stripe } from './stripe-client';
import { serialised } from './customer-lock';
import { isUniqueViolation } from '../utils/db-errors';
import type { UserRecord } from '../content-types/users-permissions';

type Handler<E extends Stripe.Event = Stripe.Event> = (event: E, g: StripeGateway) => Promise<void>;
/** Each handler takes the events of its own type. */
type Handlers = { [T in Stripe.Event.Type]?: Handler<Extract<Stripe.Event, { type: T }>> };
type SubscriptionEvent = Stripe.CustomerSubscriptionCreatedEvent | Stripe.CustomerSubscriptionUpdatedEvent | Stripe.CustomerSubscriptionDeletedEvent;
type InvoiceEvent = Extract<Stripe.Event, { data: { object: Stripe.Invoice } }>;

const STALE_PROCESSING_MS = 5 * 60_000;

type Activation = ReturnType<typeof activations>;

const events = (strapi: Strapi) => query(strapi, UID.stripeEvent);
const sync = (strapi: Strapi) => getService(strapi, 'billing-sync');
const settings = (strapi: Strapi) => getService(strapi, 'stripe-settings');

const notifyUser = async (strapi: Strapi, customer: string | null, method: string) => {
  if (!customer) return;
  const user = await query(strapi, UID.user).findOne({ where: { stripe_customer_id: customer } });
  const notifications = getService(strapi, 'notifications') as unknown as Record<string, unknown>;
  const send = notifications[method] as undefined | ((u: UserRecord) => Promise<void>);
  if (user && send) await send.call(notifications, user);
};

const idOf = (value: unknown): string | null =>
  typeof value === 'string' && value ? value : value && typeof value === 'object' && 'id' in value ? String(value.id) : null;

/**
 * Reads and writes under the customer's lock (the one API calls hold while they change that
 * customer's billing): a copy read before taking it could be older than what the API call is
 * writing, and would move the row backwards. A Stripe object's customer never changes, so the
 * (verified) payload's customer is a safe lock key.
 */
const underCustomer = <T>(customer: string | null, work: () => Promise<T>): Promise<T> => (customer ? serialised(customer, work) : work());

/** Callers hold the customer's lock. */
const syncSubscriptionLocked = async (strapi: Strapi, id: string, g: StripeGateway) => {
  await sync(strapi).subscription(await g.retrieveSubscription(id));
};

const syncSubscription = async (strapi: Strapi, event: SubscriptionEvent, g: StripeGateway) => {
  const id = event.data.object.id;
  const customer = idOf(event.data.object.customer) ?? (await g.retrieveSubscription(id)).customer;
  await underCustomer(customer, () => syncSubscriptionLocked(strapi, id, g));
};

const onInvoice = async (strapi: Strapi, activation: Activation, event: InvoiceEvent, g: StripeGateway) => {
  const id = event.data.object.id;
  const customer = idOf(event.data.object.customer) ?? (await g.retrieveInvoice(id)).customer;
  const invoice = await underCustomer(customer, async () => {
    const invoice = await g.retrieveInvoice(id);
    if (invoice.subscription) await syncSubscriptionLocked(strapi, invoice.subscription, g);
    const local = await sync(strapi).invoice(invoice);
    // A one-time purchase: the invoice's row names the subscription it pays for.
    const oneTime = !invoice.subscription ? local?.subscription_id : null;
    if (oneTime) {
      const row = await query(strapi, UID.subscription).findOne({ where: { id: oneTime } });
      if (row && row.status !== 'canceled' && !row.stripe_subscription_id) {
        const status =
          invoice.status === 'paid'
            ? 'active'
            : invoice.payment_intent?.status === 'requires_action'
              ? 'pending'
              : row.status === 'active'
                ? 'active'
                : 'payment_required';
        // Conditional: a row ended meanwhile (replaced, given up) is never brought back.
        await activation.update(row.id, { status }, { status: { $ne: 'canceled' } });
      }
    }
    return invoice;
  });
  if (invoice.billing_reason === 'subscription_cycle') {
    if (event.type === 'invoice.paid') await notifyUser(strapi, invoice.customer, 'subscriptionRenewalSucceeded');
    if (event.type === 'invoice.payment_failed') await notifyUser(strapi, invoice.customer, 'subscriptionRenewalFailed');
  }
};

const onChargeRefunded = async (strapi: Strapi, event: Extract<Stripe.Event, { type: 'charge.refunded' }>, g: StripeGateway) => {
  const charge = await g.retrieveCharge(event.data.object.id);
  const paymentIntent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  const invoiceId =
    (typeof charge.invoice === 'string' ? charge.invoice : charge.invoice?.id) ?? (paymentIntent ? await g.invoiceIdForPaymentIntent(paymentIntent) : null);
  if (!invoiceId) return;
  const row = await query(strapi, UID.invoice).findOne({ where: { invoice_id: invoiceId } });
  if (row) {
    await query(strapi, UID.invoice).update({
      where: { id: row.id },
      data: refundState(Number(row.amount ?? 0), Number(charge.amount_refunded ?? 0), String(charge.currency ?? row.currency ?? 'usd')),
    });
  }
};

const onDeauthorized = async (strapi: Strapi, event: Extract<Stripe.Event, { type: 'account.application.deauthorized' }>) => {
  const { accountId } = await settings(strapi).credentials();
  if (accountId && event.account === accountId) {
    await settings(strapi).setAccount(null);
    strapi.log.warn(`[billing] Stripe account ${accountId} deauthorized the application`);
  }
};

/** The events the webhook endpoint applies: the ones to select when registering it at Stripe. */
export const STRIPE_WEBHOOK_EVENTS = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.created',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'invoice.voided',
  'invoice.marked_uncollectible',
  'charge.refunded',
  'account.application.deauthorized',
] as const satisfies readonly Stripe.Event.Type[];

/** A handler for each event of the list, and only those. */
type Handled = { [T in (typeof STRIPE_WEBHOOK_EVENTS)[number]]: Handler<Extract<Stripe.Event, { type: T }>> };

const handlersFor = (strapi: Strapi, activation: Activation): Handled => {
  const subscription: Handler<SubscriptionEvent> = (event, g) => syncSubscription(strapi, event, g);
  const invoice: Handler<InvoiceEvent> = (event, g) => onInvoice(strapi, activation, event, g);
  return {
    'customer.subscription.created': subscription,
    'customer.subscription.updated': subscription,
    'customer.subscription.deleted': subscription,
    'invoice.created': invoice,
    'invoice.finalized': invoice,
    'invoice.paid': invoice,
    'invoice.payment_succeeded': invoice,
    'invoice.payment_failed': invoice,
    'invoice.payment_action_required': invoice,
    'invoice.voided': invoice,
    'invoice.marked_uncollectible': invoice,
    'charge.refunded': (event, g) => onChargeRefunded(strapi, event, g),
    'account.application.deauthorized': (event) => onDeauthorized(strapi, event),
  };
};

/** Records the event once; returns false when it was already applied (or is being applied). */
const claim = async (strapi: Strapi, event: Stripe.Event): Promise<boolean> => {
  try {
    await events(strapi).create({ data: { event_id: event.id, type: event.type, payload: event, status: 'processing' } });
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const existing = await events(strapi).findOne({ where: { event_id: event.id } });
  if (!existing || existing.status === 'processed') return false;
  const stale = existing.status === 'processing' && Date.now() - new Date(existing.updatedAt).getTime() > STALE_PROCESSING_MS;
  if (existing.status !== 'failed' && !stale) return false;
  const taken = await events(strapi).updateMany({ where: { id: existing.id, status: existing.status }, data: { status: 'processing' } });
  return taken.count === 1;
};

const apply = async (strapi: Strapi, handlers: Handlers, event: Stripe.Event): Promise<'applied' | 'duplicate' | 'ignored'> => {
  if (!(await claim(strapi, event))) return 'duplicate';
  // The handler under an event's type takes that event (TypeScript cannot pair the two itself).
  const handler = handlers[event.type] as Handler | undefined;
  try {
    if (handler) {
      const g = await settings(strapi).gateway();
      if (!g) throw new Error('Stripe is not configured');
      await handler(event, g);
    }
    await events(strapi).updateMany({
      where: { event_id: event.id },
      data: { status: handler ? 'processed' : 'ignored', processed_at: new Date(), last_error: null },
    });
    return handler ? 'applied' : 'ignored';
  } catch (error) {
    await events(strapi).updateMany({ where: { event_id: event.id }, data: { status: 'failed', last_error: (error as Error).message.slice(0, 2000) } });
    strapi.log.error(`[billing] webhook ${event.type} ${event.id} failed: ${(error as Error).message}`);
    throw error;
  }
};

const receive = async (strapi: Strapi, handlers: Handlers, rawBody: string | Buffer | undefined, signature: string | undefined) => {
  const { webhookSecret } = await settings(strapi).credentials();
  if (!webhookSecret || !rawBody || !signature) throw badRequest(MESSAGES.webhookSignatureInvalid);
  let event: Stripe.Event;
  try {
    event = constructWebhookEvent(rawBody, signature, webhookSecret);
  } catch {
    strapi.log.warn('[billing] rejected a webhook with a bad or stale signature');
    throw badRequest(MESSAGES.webhookSignatureInvalid);
  }
  return { id: event.id, result: await apply(strapi, handlers, event) };
};

const reconcile = async (strapi: Strapi, handlers: Handlers, sinceSeconds: number) => {
  const g = await settings(strapi).gateway();
  if (!g) throw serviceUnavailable(MESSAGES.paymentsNotConfigured);
  const since = Math.floor(Date.now() / 1000) - sinceSeconds;
  const summary = { seen: 0, applied: 0, duplicate: 0, ignored: 0, failed: 0 };
  for (const event of await g.listEventsSince(since)) {
    summary.seen += 1;
    try {
      summary[await apply(strapi, handlers, event)] += 1;
    } catch {
      summary.failed += 1;
    }
  }
  return summary;
};

/**
 * Stripe's incoming events (its webhooks; outgoing webhooks live in webhooks/): verified on the
 * raw body, stored by event id (unique), applied once. Handlers never trust the payload's state:
 * they re-read the object from Stripe and upsert it, so duplicates, replays and out-of-order
 * deliveries converge on Stripe's current state.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const handlers = handlersFor(strapi, activations(strapi));

  return {
    handledTypes: Object.keys(handlers),

    /** Verifies and applies one delivery. Throws 400 for a bad signature (nothing is changed). */
    async receive(rawBody: string | Buffer | undefined, signature: string | undefined) {
      return receive(strapi, handlers, rawBody, signature);
    },

    /** After an outage: re-reads recent events from Stripe and applies the ones we missed. */
    async reconcile(sinceSeconds: number) {
      return reconcile(strapi, handlers, sinceSeconds);
    },
  };
};
