import { MESSAGES } from '@branchify/config';
import { AppError, conflict, forbidden, notFound, validationError } from '../http/errors';
import { grantsAccess } from '../plans/subscription-state';
import { isFree, toMinorUnits, type PlanRow } from '../plans/present';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import type { UserRecord } from '../users/serialize';
import { isCardError, toAppError } from './errors';
import type { InvoiceView, StripeGateway, SubscriptionView } from './gateway';
import { fromMinor } from './mapping';
import type { InvoiceRow, SubscriptionRow } from './records';
import { serialised } from './sync';

/** What a subscribe/pay call ended in, for the controller to answer. */
export type PaymentOutcome =
  | { kind: 'active'; subscription: SubscriptionRow }
  | { kind: 'requires_action'; subscription: SubscriptionRow; client_secret: string | null; payment_intent: string | null }
  | { kind: 'declined'; subscription: SubscriptionRow }
  | { kind: 'awaiting_payment'; subscription: SubscriptionRow };

type Actor = 'user' | 'admin';

/**
 * Plans, subscriptions, invoices and refunds (spec sections 4 and 5, DESIGN.md section 5). Stripe
 * is reached only through the gateway; every state we store comes from a freshly read Stripe
 * object through the sync service, the same path the webhooks take.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const subscriptions = () => query(strapi, UID.subscription);
  const invoices = () => query(strapi, UID.invoice);
  const users = () => query(strapi, UID.user);
  const settings = () => getService(strapi, 'stripe-settings');
  const sync = () => getService(strapi, 'billing-sync');
  const plans = () => getService(strapi, 'plans');
  const log = (message: string) => strapi.log.warn(message);

  const gateway = async (): Promise<StripeGateway> => {
    const g = (await settings().configured()) ? await settings().gateway() : null;
    if (!g) throw new AppError(503, MESSAGES.paymentsNotConfigured);
    return g;
  };

  /** Runs a Stripe conversation, turning SDK failures into the product's errors. */
  const stripeCall = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toAppError(error, log);
    }
  };

  const customerOf = async (user: UserRecord, g: StripeGateway): Promise<string> => {
    const row = await users().findOne({ where: { id: user.id }, select: ['id', 'stripe_customer_id'] });
    if (row?.stripe_customer_id) return row.stripe_customer_id;
    const id = await g.createCustomer({ email: user.email, name: `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim(), userId: user.id });
    await users().update({ where: { id: user.id }, data: { stripe_customer_id: id } });
    return id;
  };

  const priceOf = async (plan: PlanRow, g: StripeGateway): Promise<string> => {
    if (plan.stripe_price_id) return plan.stripe_price_id;
    const interval = plan.payment_schedule === 'monthly' ? 'month' : plan.payment_schedule === 'yearly' ? 'year' : null;
    const { productId, priceId } = await g.createPrice({
      id: plan.id,
      name: plan.name,
      amount: toMinorUnits(plan.price),
      currency: plan.currency,
      interval,
      productId: plan.stripe_product_id,
    });
    await plans().setStripeIds(plan.id, { stripe_product_id: productId, stripe_price_id: priceId });
    return priceId;
  };

  const currentOf = async (user: Pick<UserRecord, 'id' | 'subscription_id'>): Promise<SubscriptionRow | null> => {
    const fresh = await users().findOne({ where: { id: user.id }, select: ['id', 'subscription_id'] });
    if (!fresh?.subscription_id) return null;
    return subscriptions().findOne({ where: { id: fresh.subscription_id, user_id: user.id } });
  };

  const requirePlan = async (planId: unknown): Promise<PlanRow> => {
    const plan = typeof planId === 'number' ? await plans().find(planId) : null;
    if (!plan || !plan.is_active) throw validationError({ plan_id: [MESSAGES.planNotAvailable] });
    if (plan.managed_by === 'self') throw validationError({ plan_id: [MESSAGES.selfManagedPlan] });
    return plan;
  };

  const refuseAdmins = (user: UserRecord) => {
    if (user.is_admin) throw validationError({ plan_id: [MESSAGES.adminNoSubscriptions] });
  };

  const setCurrent = (userId: number, subscriptionId: number) =>
    users().update({ where: { id: userId }, data: { subscription_id: subscriptionId } });

  const outcomeOf = (row: SubscriptionRow, invoice: InvoiceView | null): PaymentOutcome => {
    if (row.status === 'active') return { kind: 'active', subscription: row };
    if (row.status === 'pending' || invoice?.payment_intent?.status === 'requires_action') {
      return { kind: 'requires_action', subscription: row, client_secret: invoice?.payment_intent?.client_secret ?? null, payment_intent: invoice?.payment_intent?.id ?? null };
    }
    return invoice?.payment_intent && invoice.payment_intent.status === 'requires_payment_method'
      ? { kind: 'declined', subscription: row }
      : { kind: 'awaiting_payment', subscription: row };
  };

  /** Starts a paid plan for a user: a Stripe subscription, or a one-time invoice. */
  const startPaid = async (user: UserRecord, plan: PlanRow, options: { paymentMethod: string | null; requireCard: boolean }): Promise<PaymentOutcome> => {
    const g = await gateway();
    return stripeCall(async () => {
      const customer = await customerOf(user, g);
      return serialised(customer, async () => {
        const card = options.paymentMethod ? (await g.attachDefaultCard(customer, options.paymentMethod)).id : ((await g.defaultCard(customer))?.id ?? null);
        if (!card && options.requireCard) throw validationError({ payment_method_id: [MESSAGES.paymentMethodRequired] });
        const price = await priceOf(plan, g);
        const previous = await currentOf(user);
        const attempt = `${user.id}:${plan.id}:${previous?.id ?? 0}`;

        if (plan.payment_schedule === 'one-time') {
          const row = (await subscriptions().create({
            data: { user_id: user.id, plan_id: plan.id, status: 'pending', managed_by: 'platform', started_at: new Date(), payment_method_id: card, stripe_customer_id: customer },
          })) as SubscriptionRow;
          let invoice: InvoiceView;
          try {
            invoice = await g.createOneTimeInvoice({
              customer,
              price,
              paymentMethod: card,
              charge: Boolean(card),
              metadata: { branchify_subscription_id: String(row.id), branchify_user_id: String(user.id), branchify_plan_id: String(plan.id) },
              idempotencyKey: `one-time:${row.id}`,
            });
          } catch (error) {
            // Stripe failed or timed out: leave nothing half-written behind.
            await subscriptions().delete({ where: { id: row.id } });
            throw error;
          }
          await sync().invoice(invoice, { userId: user.id, subscriptionId: row.id });
          const status = invoice.status === 'paid' ? 'active' : invoice.payment_intent?.status === 'requires_action' ? 'pending' : 'payment_required';
          const updated = (await subscriptions().update({ where: { id: row.id }, data: { status } })) as SubscriptionRow;
          await setCurrent(user.id, row.id);
          return outcomeOf(updated, invoice);
        }

        const view = await g.createSubscription({
          customer,
          price,
          paymentMethod: card,
          metadata: { branchify_user_id: String(user.id), branchify_plan_id: String(plan.id) },
          idempotencyKey: `subscription:${attempt}`,
        });
        const row = (await sync().subscription(view, { userId: user.id, planId: plan.id, makeCurrent: true }))!;
        if (card) await subscriptions().update({ where: { id: row.id }, data: { payment_method_id: card } });
        return outcomeOf(row, view.latest_invoice);
      });
    });
  };

  const startFree = async (user: UserRecord, plan: PlanRow): Promise<PaymentOutcome> => {
    const row = (await subscriptions().create({
      data: { user_id: user.id, plan_id: plan.id, status: 'active', managed_by: 'platform', started_at: new Date() },
    })) as SubscriptionRow;
    await setCurrent(user.id, row.id);
    return { kind: 'active', subscription: row };
  };

  /** Ends what a replaced subscription still holds on Stripe (best effort: the new one stands). */
  const retire = async (row: SubscriptionRow | null, reason: string) => {
    if (!row) return;
    if (row.stripe_subscription_id && row.status !== 'canceled') {
      try {
        const g = await gateway();
        await serialised(row.stripe_customer_id ?? String(row.id), async () => {
          const view = await g.cancelNow(row.stripe_subscription_id!, `retire:${row.id}`);
          await sync().subscription(view);
        });
      } catch (error) {
        strapi.log.error(`[billing] could not cancel replaced subscription ${row.id}: ${(error as Error).message}`);
      }
    }
    await subscriptions().update({ where: { id: row.id }, data: { status: 'canceled', canceled_at: new Date(), cancellation_reason: reason } });
  };

  const notify = async (user: UserRecord, plan: PlanRow) => {
    const notifications = getService(strapi, 'notifications') as unknown as Record<string, unknown>;
    const send = notifications.newSubscription as undefined | ((u: UserRecord, p: PlanRow) => Promise<void>);
    if (send) await send(user, plan).catch((e: Error) => strapi.log.warn(`[billing] new subscription mail failed: ${e.message}`));
  };

  const service = {
    gateway,
    currentOf,

    /**
     * Mirrors a paid plan to a Stripe product and price when it is saved, so the first sale does
     * not pay for it. Best effort: without Stripe (or with Stripe down) the price is made at sale.
     */
    async mirrorPlan(plan: PlanRow): Promise<void> {
      if (isFree(plan) || plan.stripe_price_id || !(await settings().configured())) return;
      try {
        await priceOf(plan, await gateway());
      } catch (error) {
        strapi.log.warn(`[billing] could not mirror plan ${plan.id} to Stripe yet: ${(error as Error).message}`);
      }
    },

    async subscribe(user: UserRecord, input: { plan_id: unknown; payment_method_id?: string | null }, actor: Actor): Promise<PaymentOutcome> {
      refuseAdmins(user);
      const plan = await requirePlan(input.plan_id);
      const current = await currentOf(user);
      if (current && grantsAccess(current)) throw conflict(MESSAGES.alreadySubscribed);
      const outcome = isFree(plan)
        ? await startFree(user, plan)
        : await startPaid(user, plan, { paymentMethod: input.payment_method_id ?? null, requireCard: actor === 'user' });
      if (current && current.id !== outcome.subscription.id) await retire(current, 'replaced');
      if (outcome.kind === 'active') await notify(user, plan);
      return outcome;
    },

    async change(user: UserRecord, sub: SubscriptionRow, input: { plan_id: unknown; payment_method_id?: string | null }, actor: Actor): Promise<PaymentOutcome> {
      refuseAdmins(user);
      if (sub.managed_by !== 'platform') throw validationError({ plan_id: [MESSAGES.onlyPlatformManagedChange] });
      const plan = await requirePlan(input.plan_id);
      if (plan.id === sub.plan_id) throw validationError({ plan_id: [MESSAGES.samePlan] });
      const currentPlan = await plans().find(sub.plan_id);
      const recurring = (p: PlanRow | null) => Boolean(p && !isFree(p) && (p.payment_schedule === 'monthly' || p.payment_schedule === 'yearly'));

      if (sub.stripe_subscription_id && sub.status === 'active' && recurring(currentPlan) && recurring(plan)) {
        const g = await gateway();
        return stripeCall(async () => {
          const price = await priceOf(plan, g);
          // Written under the customer's lock too, so a webhook's copy cannot land in between.
          return serialised(sub.stripe_customer_id ?? String(sub.id), async () => {
            const live = await g.retrieveSubscription(sub.stripe_subscription_id!);
            const view = await g.changePrice(live, price, { branchify_user_id: String(user.id), branchify_plan_id: String(plan.id) }, `change:${sub.id}:${plan.id}`);
            const row = (await sync().subscription(view, { userId: user.id, planId: plan.id }))!;
            return outcomeOf(row, view.latest_invoice);
          });
        });
      }

      // Any other move (free ↔ paid, one-time ↔ recurring) starts the new plan, then retires the old one.
      const outcome = isFree(plan)
        ? await startFree(user, plan)
        : await startPaid(user, plan, { paymentMethod: input.payment_method_id ?? null, requireCard: actor === 'user' });
      if (outcome.kind === 'declined') {
        // Keep the user on the plan they had; the declined attempt stays for a retry.
        await setCurrent(user.id, sub.id);
        return outcome;
      }
      await retire(sub, `changed to plan ${plan.id}`);
      return outcome;
    },

    async cancel(sub: SubscriptionRow, input: { immediately: boolean; reason: string | null }): Promise<SubscriptionRow> {
      if (sub.managed_by !== 'platform') throw conflict(MESSAGES.cannotCancelHere);
      if (sub.status !== 'active') throw conflict(MESSAGES.noActiveSubscriptionToCancel);
      const plan = await plans().find(sub.plan_id);
      if (!sub.stripe_subscription_id || !plan || plan.payment_schedule === 'one-time' || isFree(plan)) {
        // One-time (and free) plans always cancel immediately.
        return subscriptions().update({
          where: { id: sub.id },
          data: { status: 'canceled', canceled_at: new Date(), cancellation_reason: input.reason, cancel_at_period_end: false },
        });
      }
      const g = await gateway();
      return stripeCall(async () => {
        return serialised(sub.stripe_customer_id ?? String(sub.id), async () => {
          const view = input.immediately
            ? await g.cancelNow(sub.stripe_subscription_id!, `cancel-now:${sub.id}:${Date.now()}`)
            : await g.setCancelAtPeriodEnd(sub.stripe_subscription_id!, true, `cancel-end:${sub.id}:${Date.now()}`);
          const row = (await sync().subscription(view))!;
          return subscriptions().update({ where: { id: row.id }, data: { cancellation_reason: input.reason } });
        });
      });
    },

    async resume(user: UserRecord, sub: SubscriptionRow): Promise<PaymentOutcome> {
      if (sub.managed_by !== 'platform') throw conflict(MESSAGES.cannotResumeHere);
      if (sub.status !== 'canceled') throw conflict(MESSAGES.onlyCanceledResumable);
      if (!sub.stripe_subscription_id) {
        const row = (await subscriptions().update({
          where: { id: sub.id },
          data: { status: 'active', canceled_at: null, cancel_at_period_end: false, cancellation_reason: null },
        })) as SubscriptionRow;
        await setCurrent(user.id, row.id);
        return { kind: 'active', subscription: row };
      }
      const g = await gateway();
      return stripeCall(async () => {
        const live = await g.retrieveSubscription(sub.stripe_subscription_id!);
        if (live.status !== 'canceled' && live.status !== 'incomplete_expired') {
          return serialised(live.customer, async () => {
            const view = await g.setCancelAtPeriodEnd(live.id, false, `resume:${sub.id}:${Date.now()}`);
            const row = (await sync().subscription(view, { makeCurrent: true }))!;
            await subscriptions().update({ where: { id: row.id }, data: { cancellation_reason: null } });
            return outcomeOf(row, view.latest_invoice);
          });
        }
        // Fully ended on Stripe: resuming starts it again at once on the same plan.
        const plan = await plans().find(sub.plan_id);
        if (!plan) throw validationError({ plan_id: [MESSAGES.planNotAvailable] });
        await subscriptions().update({ where: { id: sub.id }, data: { cancellation_reason: null } });
        return startPaid(user, plan, { paymentMethod: null, requireCard: true });
      });
    },

    async invoicesOf(sub: SubscriptionRow): Promise<InvoiceRow[]> {
      return invoices().findMany({ where: { subscription_id: sub.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    },

    async findInvoice(sub: SubscriptionRow, invoiceId: unknown): Promise<InvoiceRow> {
      const key = typeof invoiceId === 'number' || /^\d+$/.test(String(invoiceId)) ? { id: Number(invoiceId) } : { invoice_id: String(invoiceId ?? '') };
      const row = (await invoices().findOne({ where: { ...key, subscription_id: sub.id } })) as InvoiceRow | null;
      if (!row) throw notFound();
      return row;
    },

    /** Pays an open invoice with the user's default card; success activates the subscription. */
    async payInvoice(user: UserRecord, sub: SubscriptionRow, invoice: InvoiceRow): Promise<PaymentOutcome> {
      if (invoice.status !== 'open') throw conflict(MESSAGES.invoiceNotOpen);
      const g = await gateway();
      return stripeCall(async () => {
        const customer = await customerOf(user, g);
        const card = await g.defaultCard(customer);
        if (!card) throw validationError({ payment_method_id: [MESSAGES.paymentMethodRequired] });
        return serialised(customer, async () => {
          let paid: InvoiceView;
          try {
            paid = await g.payInvoice(invoice.invoice_id!, card.id, `pay:${invoice.invoice_id}:${card.id}`);
          } catch (error) {
            if (!isCardError(error)) throw error;
            await sync().invoice(await g.retrieveInvoice(invoice.invoice_id!), { userId: user.id, subscriptionId: sub.id });
            return { kind: 'declined', subscription: sub } as PaymentOutcome;
          }
          await sync().invoice(paid, { userId: user.id, subscriptionId: sub.id });
          if (sub.stripe_subscription_id) {
            const row = (await sync().subscription(await g.retrieveSubscription(sub.stripe_subscription_id), { makeCurrent: true }))!;
            return outcomeOf(row, paid);
          }
          const status = paid.status === 'paid' ? 'active' : paid.payment_intent?.status === 'requires_action' ? 'pending' : 'payment_required';
          const row = (await subscriptions().update({ where: { id: sub.id }, data: { status, payment_method_id: card.id } })) as SubscriptionRow;
          await setCurrent(user.id, row.id);
          return outcomeOf(row, paid);
        });
      });
    },

    /** Spec section 5 refund rules: only paid, once, 0 < amount ≤ invoice amount. */
    async refund(sub: SubscriptionRow, invoice: InvoiceRow, amount: number | undefined): Promise<InvoiceRow> {
      if (invoice.status === 'refunded' || Number(invoice.amount_refunded ?? 0) > 0) throw conflict(MESSAGES.alreadyRefunded);
      if (invoice.status !== 'paid') throw validationError({ invoice_id: [MESSAGES.invoiceMayBePending] }, MESSAGES.invoiceMayBePending);
      const total = Number(invoice.amount ?? 0);
      if (amount !== undefined && amount <= 0) throw validationError({ refund_amount: [MESSAGES.refundAmountPositive] });
      if (amount !== undefined && Math.round(amount * 100) > Math.round(total * 100)) throw validationError({ refund_amount: [MESSAGES.refundExceedsAmount] });
      const g = await gateway();
      return stripeCall(async () => {
        const live = await g.retrieveInvoice(invoice.invoice_id!);
        if (!live.payment_intent) throw validationError({ invoice_id: [MESSAGES.invoiceMayBePending] }, MESSAGES.invoiceMayBePending);
        const refunded = amount === undefined ? undefined : Math.round(amount * 100);
        const refund = await g.refund(live.payment_intent.id, refunded, `refund:${invoice.invoice_id}`);
        strapi.log.info(`[billing] refunded ${refund.amount} ${refund.currency} of invoice ${invoice.invoice_id} (subscription ${sub.id})`);
        return invoices().update({
          where: { id: invoice.id },
          data: { status: 'refunded', amount_refunded: fromMinor(refund.amount) },
        });
      });
    },

    async paymentMethod(user: UserRecord) {
      if (!(await settings().configured())) return null;
      const row = await users().findOne({ where: { id: user.id }, select: ['id', 'stripe_customer_id'] });
      if (!row?.stripe_customer_id) return null;
      const g = await gateway();
      return stripeCall(() => g.defaultCard(row.stripe_customer_id));
    },

    async setPaymentMethod(user: UserRecord, paymentMethod: string) {
      const g = await gateway();
      return stripeCall(async () => {
        const customer = await customerOf(user, g);
        const card = await serialised(customer, () => g.attachDefaultCard(customer, paymentMethod));
        await subscriptions().updateMany({ where: { user_id: user.id, status: { $ne: 'canceled' } }, data: { payment_method_id: card.id } });
        return card;
      });
    },
  };
  return service;
};
