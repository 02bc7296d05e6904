import { MESSAGES } from '@branchify/shared';
import { AppError } from '../http/errors';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import type { UserRecord } from '../users/serialize';
import { activations } from './activation';
import { refundState } from './mapping';
import type { StripeGateway } from './gateway';
import { constructWebhookEvent } from './stripe-client';
import { serialised } from './sync';

interface StripeEventLike {
  id: string;
  type: string;
  account?: string | null;
  created: number;
  data: { object: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- a verified Stripe event's object, re-read before use
}

export interface StripeEventRow {
  id: number;
  event_id: string;
  type: string;
  payload: unknown;
  status: string | null;
  processed_at: string | Date | null;
  last_error: string | null;
}

type Handler = (event: StripeEventLike, g: StripeGateway) => Promise<void>;

const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test((error as Error)?.message ?? '');
const STALE_PROCESSING_MS = 5 * 60_000;

/**
 * Stripe webhooks: verified on the raw body, stored by event id (unique), applied once. Handlers
 * never trust the payload's state: they re-read the object from Stripe and upsert it, so
 * duplicates, replays and out-of-order deliveries converge on Stripe's current state.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const events = () => query(strapi, UID.stripeEvent);
  const sync = () => getService(strapi, 'billing-sync');
  const settings = () => getService(strapi, 'stripe-settings');
  const activation = activations(strapi);

  const notifyUser = async (customer: string | null, method: string) => {
    if (!customer) return;
    const user = await query(strapi, UID.user).findOne({ where: { stripe_customer_id: customer } });
    const notifications = getService(strapi, 'notifications') as unknown as Record<string, unknown>;
    const send = notifications[method] as undefined | ((u: UserRecord) => Promise<void>);
    if (user && send) await send.call(notifications, user);
  };

  const idOf = (value: unknown): string | null =>
    typeof value === 'string' && value ? value : value && typeof value === 'object' && 'id' in value ? String((value as { id: unknown }).id) : null;

  /**
   * Reads and writes under the customer's lock (the one API calls hold while they change that
   * customer's billing): a copy read before taking it could be older than what the API call is
   * writing, and would move the row backwards. A Stripe object's customer never changes, so the
   * (verified) payload's customer is a safe lock key.
   */
  const underCustomer = <T>(customer: string | null, work: () => Promise<T>): Promise<T> => (customer ? serialised(customer, work) : work());

  /** Callers hold the customer's lock. */
  const syncSubscriptionLocked = async (id: string, g: StripeGateway) => {
    await sync().subscription(await g.retrieveSubscription(id));
  };

  const syncSubscription: Handler = async (event, g) => {
    const id = String(event.data.object.id);
    const customer = idOf(event.data.object.customer) ?? (await g.retrieveSubscription(id)).customer;
    await underCustomer(customer, () => syncSubscriptionLocked(id, g));
  };

  const onInvoice: Handler = async (event, g) => {
    const id = String(event.data.object.id);
    const customer = idOf(event.data.object.customer) ?? (await g.retrieveInvoice(id)).customer;
    const invoice = await underCustomer(customer, async () => {
      const invoice = await g.retrieveInvoice(id);
      if (invoice.subscription) await syncSubscriptionLocked(invoice.subscription, g);
      const local = await sync().invoice(invoice);
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
      if (event.type === 'invoice.paid') await notifyUser(invoice.customer, 'subscriptionRenewalSucceeded');
      if (event.type === 'invoice.payment_failed') await notifyUser(invoice.customer, 'subscriptionRenewalFailed');
    }
  };

  const handlers: Partial<Record<string, Handler>> = {
    'customer.subscription.created': syncSubscription,
    'customer.subscription.updated': syncSubscription,
    'customer.subscription.deleted': syncSubscription,
    'invoice.created': onInvoice,
    'invoice.finalized': onInvoice,
    'invoice.paid': onInvoice,
    'invoice.payment_succeeded': onInvoice,
    'invoice.payment_failed': onInvoice,
    'invoice.payment_action_required': onInvoice,
    'invoice.voided': onInvoice,
    'invoice.marked_uncollectible': onInvoice,
    'charge.refunded': async (event, g) => {
      const charge = await g.retrieveCharge(String(event.data.object.id));
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
    },
    'account.application.deauthorized': async (event) => {
      const { accountId } = await settings().credentials();
      if (accountId && event.account === accountId) {
        await settings().setAccount(null);
        strapi.log.warn(`[billing] Stripe account ${accountId} deauthorized the application`);
      }
    },
  };

  /** Records the event once; returns false when it was already applied (or is being applied). */
  const claim = async (event: StripeEventLike): Promise<boolean> => {
    try {
      await events().create({ data: { event_id: event.id, type: event.type, payload: event, status: 'processing' } });
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await events().findOne({ where: { event_id: event.id } });
    if (!existing || existing.status === 'processed') return false;
    const stale = existing.status === 'processing' && Date.now() - new Date(existing.updatedAt).getTime() > STALE_PROCESSING_MS;
    if (existing.status !== 'failed' && !stale) return false;
    const taken = await events().updateMany({ where: { id: existing.id, status: existing.status }, data: { status: 'processing' } });
    return taken.count === 1;
  };

  const apply = async (event: StripeEventLike): Promise<'applied' | 'duplicate' | 'ignored'> => {
    if (!(await claim(event))) return 'duplicate';
    const handler: Handler | undefined = handlers[event.type];
    try {
      if (handler) {
        const g = await settings().gateway();
        if (!g) throw new Error('Stripe is not configured');
        await handler(event, g);
      }
      await events().updateMany({
        where: { event_id: event.id },
        data: { status: handler ? 'processed' : 'ignored', processed_at: new Date(), last_error: null },
      });
      return handler ? 'applied' : 'ignored';
    } catch (error) {
      await events().updateMany({ where: { event_id: event.id }, data: { status: 'failed', last_error: (error as Error).message.slice(0, 2000) } });
      strapi.log.error(`[billing] webhook ${event.type} ${event.id} failed: ${(error as Error).message}`);
      throw error;
    }
  };

  return {
    handledTypes: Object.keys(handlers),

    /** Verifies and applies one delivery. Throws 400 for a bad signature (nothing is changed). */
    async receive(rawBody: string | Buffer | undefined, signature: string | undefined) {
      const { webhookSecret } = await settings().credentials();
      if (!webhookSecret || !rawBody || !signature) throw new AppError(400, MESSAGES.webhookSignatureInvalid);
      let event: StripeEventLike;
      try {
        event = constructWebhookEvent(rawBody, signature, webhookSecret) as unknown as StripeEventLike;
      } catch {
        strapi.log.warn('[billing] rejected a webhook with a bad or stale signature');
        throw new AppError(400, MESSAGES.webhookSignatureInvalid);
      }
      return { id: event.id, result: await apply(event) };
    },

    /** After an outage: re-reads recent events from Stripe and applies the ones we missed. */
    async reconcile(sinceSeconds: number) {
      const g = await settings().gateway();
      if (!g) throw new AppError(503, MESSAGES.paymentsNotConfigured);
      const since = Math.floor(Date.now() / 1000) - sinceSeconds;
      const summary = { seen: 0, applied: 0, duplicate: 0, ignored: 0, failed: 0 };
      for (const event of await g.listEventsSince(since)) {
        summary.seen += 1;
        try {
          summary[await apply(event as unknown as StripeEventLike)] += 1;
        } catch {
          summary.failed += 1;
        }
      }
      return summary;
    },
  };
};
