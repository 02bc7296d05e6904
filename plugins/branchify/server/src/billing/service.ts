import {
  MESSAGES,
  currencyRule,
  type InvoiceResource,
  fitsCurrency,
  formatMoney,
  fromMinor,
  refundableMinor,
  grantsAccess,
  messageTemplates,
  toMinor,
} from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { AppError, conflict, forbidden, notFound, unauthenticated, validationError } from '../http/errors';
import { isFree, type PlanRow } from '../plans/present';
import { getService } from '../utils/services';
import { MONEY_COLUMN } from '../content-types/define';
import { query, rawRows, UID, type Strapi } from '../utils/strapi';
import { USER_FIELDS, type UserRecord } from '../users/serialize';
import { isCardError, toAppError } from './errors';
import type { InvoiceView, StripeGateway } from './gateway';
import { localState, refundState } from './mapping';
import { activations } from './activation';
import { chargesCard, managedBy, mayReplace, mayResume, type Actor } from './policy';
import { presentInvoice, type CanceledBy, type InvoiceRow, type SubscriptionRow } from './records';
import { serialised } from './sync';
import { isUniqueViolation } from '../utils/db-errors';

/** What a subscribe/pay call ended in, for the controller to answer. */
export type PaymentOutcome =
  | { kind: 'active'; subscription: SubscriptionRow }
  | { kind: 'requires_action'; subscription: SubscriptionRow; client_secret: string | null; payment_intent: string | null }
  | { kind: 'declined'; subscription: SubscriptionRow }
  | { kind: 'awaiting_payment'; subscription: SubscriptionRow };

/** The lock a user's subscribe, change, cancel and resume run under, check and write alike. */
const userLock = (userId: number) => `billing-user:${userId}`;
const ONE_ACTIVE_INDEX = 'branchify_subscriptions_one_active_uq';

/** What replaces a user's subscription: the row it replaces and whether a declined payment keeps it. */
interface Handover {
  replaces: SubscriptionRow | null;
  reason: string;
  /** A plan change the user pays for: a declined card leaves them on the plan they had. */
  keepOnDecline: boolean;
}

/**
 * Plans, subscriptions, invoices and refunds. Stripe
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
  const activation = activations(strapi);

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

  /**
   * The plan's Stripe price, made on first need. A stored price is checked against the plan (a
   * price made before amounts were scaled per currency charges the wrong amount): one that does not
   * match is replaced by a new one.
   */
  const priceOf = async (plan: PlanRow, g: StripeGateway): Promise<string> => {
    const interval = plan.payment_schedule === 'monthly' ? 'month' : plan.payment_schedule === 'yearly' ? 'year' : null;
    const amount = toMinor(plan.price, plan.currency);
    if (plan.stripe_price_id) {
      const stored = await g.retrievePrice(plan.stripe_price_id);
      if (stored.unit_amount === amount && stored.currency === plan.currency.toLowerCase() && stored.interval === interval) return plan.stripe_price_id;
      strapi.log.warn(
        `[billing] plan ${plan.id}'s Stripe price ${plan.stripe_price_id} charges ${stored.unit_amount} ${stored.currency} instead of ${amount} ${plan.currency}: making a new price`,
      );
    }
    const { productId, priceId } = await g.createPrice({
      id: plan.id,
      name: plan.name,
      amount,
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

  /** An active plan the actor may sell: platform plans in the app, self-managed ones through the API. */
  const requirePlan = async (planId: unknown, actor: Actor): Promise<PlanRow> => {
    const plan = typeof planId === 'number' ? await plans().find(planId) : null;
    if (!plan || !plan.is_active) throw validationError({ plan_id: [MESSAGES.planNotAvailable] });
    const selfManaged = plan.managed_by === 'self';
    if (actor === 'integration' && !selfManaged) throw validationError({ plan_id: [MESSAGES.platformPlanViaIntegratorApi] });
    if (actor !== 'integration' && selfManaged) throw validationError({ plan_id: [MESSAGES.selfManagedPlan] });
    return plan;
  };

  /** Refuses a subscription the actor does not manage (the app: platform; the API: self-managed). */
  const requireManagedBy = (sub: SubscriptionRow, actor: Actor, refusal: { app: AppError; api: AppError }) => {
    if (sub.managed_by !== managedBy(actor)) throw actor === 'integration' ? refusal.api : refusal.app;
  };

  const refuseAdmins = (user: UserRecord) => {
    if (user.is_admin) throw validationError({ plan_id: [MESSAGES.adminNoSubscriptions] });
  };

  /**
   * Runs a billing action under the user's lock on the user as they are now: one gone or being
   * deleted is refused before anything reaches Stripe (the user is signed out; an admin or an
   * integrator is told the account is gone or going).
   */
  const forUser = <T>(userId: number, actor: Actor, work: (user: UserRecord) => Promise<T>): Promise<T> =>
    serialised(userLock(userId), async () => {
      const user = await users().findOne({ where: { id: userId }, select: [...USER_FIELDS, 'deletion_started_at'] });
      if (!user || user.deletion_started_at) {
        strapi.log.info(`[billing] refused a billing action for user ${userId}: the account is ${user ? 'being deleted' : 'gone'}`);
        throw actor === 'user' ? unauthenticated() : user ? conflict(MESSAGES.accountBeingDeleted) : notFound();
      }
      return work(user);
    });

  const setCurrent = (userId: number, subscriptionId: number) => users().update({ where: { id: userId }, data: { subscription_id: subscriptionId } });

  /**
   * Ends a row here (not at Stripe) before another becomes active: the database holds at most one
   * active subscription per user, so the old one must stop first.
   */
  const endLocally = (row: SubscriptionRow, reason: string, by: CanceledBy) =>
    activation.update(row.id, { status: 'canceled', canceled_at: new Date(), cancel_at_period_end: false, cancellation_reason: reason, canceled_by: by });

  /** Writes that make a row active: a second active row for the user is a conflict, not a crash. */
  const activating = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await strapi.db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(MESSAGES.alreadySubscribed);
      throw error;
    }
  };

  const openInvoicesOf = async (row: SubscriptionRow): Promise<InvoiceRow[]> => invoices().findMany({ where: { subscription_id: row.id, status: 'open' } });

  /**
   * What an ended row still holds at Stripe: its live Stripe subscription is cancelled and its open
   * invoices voided, so nothing is charged for it later (best effort: the new state stands).
   */
  const releaseAtStripe = async (row: SubscriptionRow, liveAtStripe: boolean) => {
    const open = await openInvoicesOf(row);
    if (!liveAtStripe && open.length === 0) return;
    try {
      const g = await gateway();
      await serialised(row.stripe_customer_id ?? String(row.id), async () => {
        if (liveAtStripe && row.stripe_subscription_id) await sync().subscription(await g.cancelNow(row.stripe_subscription_id, `retire:${row.id}`));
        for (const invoice of await openInvoicesOf(row)) {
          if (invoice.invoice_id) await sync().invoice(await g.voidInvoice(invoice.invoice_id, `void:${invoice.invoice_id}`));
        }
      });
    } catch (error) {
      strapi.log.error(`[billing] could not release subscription ${row.id} at Stripe: ${(error as Error).message}`);
    }
  };

  /** A row nobody pays for any more: ended here, then released at Stripe. */
  const retire = async (row: SubscriptionRow, reason: string) => {
    const liveAtStripe = Boolean(row.stripe_subscription_id) && row.status !== 'canceled';
    if (row.status !== 'canceled') await endLocally(row, reason, 'system');
    await releaseAtStripe(row, liveAtStripe);
  };

  /** The replaced row stops being active; false when a declined change keeps the user on it. */
  const handOver = async (handover: Handover, declined: boolean): Promise<boolean> => {
    if (declined && handover.keepOnDecline) return false;
    const old = handover.replaces;
    if (old && old.status !== 'canceled') await endLocally(old, handover.reason, 'system');
    return true;
  };

  /** Whether a one-time purchase was paid (and not refunded since). */
  const paidFor = async (row: SubscriptionRow): Promise<boolean> => (await invoices().count({ where: { subscription_id: row.id, status: 'paid' } })) > 0;

  /** The same purchase still waiting for 3-D Secure: the same challenge again, not a second purchase. */
  const pendingAgain = async (row: SubscriptionRow): Promise<PaymentOutcome> => {
    const g = await gateway();
    return stripeCall(async () => {
      if (row.stripe_subscription_id) return outcomeOf(row, (await g.retrieveSubscription(row.stripe_subscription_id)).latest_invoice);
      const invoice = (await openInvoicesOf(row))[0];
      return outcomeOf(row, invoice?.invoice_id ? await g.retrieveInvoice(invoice.invoice_id) : null);
    });
  };

  const outcomeOf = (row: SubscriptionRow, invoice: InvoiceView | null): PaymentOutcome => {
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

  /**
   * Starts a paid plan for a user: a Stripe subscription, or a one-time invoice. The user's own
   * start charges their card; an admin's leaves the first invoice open for the user to pay. The
   * idempotency key names the intent (user, plan, the subscription it replaces, the card), so the
   * same request sent twice is one purchase at Stripe.
   */
  const startPaid = async (user: UserRecord, plan: PlanRow, options: { paymentMethod: string | null; actor: Actor } & Handover): Promise<PaymentOutcome> => {
    const outcome = await chargeOrInvoice(user, plan, options);
    // Nothing was charged: an unpaid invoice is waiting for the user, not a decline.
    return !chargesCard(options.actor) && outcome.kind === 'declined' ? { ...outcome, kind: 'awaiting_payment' } : outcome;
  };

  const chargeOrInvoice = async (
    user: UserRecord,
    plan: PlanRow,
    options: { paymentMethod: string | null; actor: Actor } & Handover,
  ): Promise<PaymentOutcome> => {
    const g = await gateway();
    const charge = chargesCard(options.actor);
    return stripeCall(async () => {
      const customer = await customerOf(user, g);
      return serialised(customer, async () => {
        let card: string | null = null;
        if (charge) {
          card = options.paymentMethod ? (await g.attachDefaultCard(customer, options.paymentMethod)).id : ((await g.defaultCard(customer))?.id ?? null);
          if (!card) throw validationError({ payment_method_id: [MESSAGES.paymentMethodRequired] });
        }
        const price = await priceOf(plan, g);
        const intent = `${user.id}:${plan.id}:${options.replaces?.id ?? 0}:${card ?? 'no-card'}`;
        const metadata = { branchify_user_id: String(user.id), branchify_plan_id: String(plan.id) };

        if (plan.payment_schedule === 'one-time') {
          const row = await subscriptions().create({
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
            await subscriptions().delete({ where: { id: row.id } });
            throw error;
          }
          await sync().invoice(invoice, { userId: user.id, subscriptionId: row.id });
          const status = invoice.status === 'paid' ? 'active' : invoice.payment_intent?.status === 'requires_action' ? 'pending' : 'payment_required';
          try {
            const updated = await activating(async () => {
              const current = await handOver(options, status === 'payment_required');
              const r = (await activation.update(row.id, { status }))!;
              if (current) await setCurrent(user.id, row.id);
              return r;
            });
            return outcomeOf(updated, invoice);
          } catch (error) {
            await subscriptions().delete({ where: { id: row.id } });
            throw error;
          }
        }

        const view = await g.createSubscription({ customer, price, paymentMethod: card, metadata, idempotencyKey: `subscription:${intent}` });
        const declined = localState(view).status === 'payment_required';
        const row = await activating(async () => {
          const current = await handOver(options, declined);
          return (await sync().subscription(view, { userId: user.id, planId: plan.id, makeCurrent: current }))!;
        });
        if (card) await subscriptions().update({ where: { id: row.id }, data: { payment_method_id: card } });
        return outcomeOf(row, view.latest_invoice);
      });
    });
  };

  /**
   * A subscription active at once, with no payment here: a free plan, or a self-managed plan the
   * integrator bills (with the end of the period it paid for, when it says).
   */
  const startFree = async (
    user: UserRecord,
    plan: PlanRow,
    handover: Handover,
    selfManaged: { renews_at: Date | null } | null = null,
  ): Promise<PaymentOutcome> =>
    activating(async () => {
      await handOver(handover, false);
      const row = await activation.create({
        user_id: user.id,
        plan_id: plan.id,
        status: 'active',
        managed_by: selfManaged ? 'self' : 'platform',
        started_at: new Date(),
        ...(selfManaged ? { renews_at: selfManaged.renews_at } : {}),
      });
      await setCurrent(user.id, row.id);
      return { kind: 'active', subscription: row } as PaymentOutcome;
    });

  /** Every subscription still billing the user is cancelled at Stripe and every open invoice voided (502 when Stripe cannot). */
  const endAllAtStripe = async (userId: number): Promise<void> => {
    const rows = await subscriptions().findMany({ where: { user_id: userId } });
    const billed = rows.filter((r) => r.stripe_subscription_id && (r.status !== 'canceled' || grantsAccess(r)));
    const open = await invoices().findMany({ where: { user_id: userId, status: 'open' } });
    if (!billed.length && !open.length) return;
    try {
      const g = await gateway();
      for (const row of billed) {
        const live = await g.retrieveSubscription(row.stripe_subscription_id!);
        if (live.status !== 'canceled' && live.status !== 'incomplete_expired') await g.cancelNow(live.id, `delete-user:${row.id}`);
      }
      for (const invoice of open) if (invoice.invoice_id) await g.voidInvoice(invoice.invoice_id, `void:${invoice.invoice_id}`);
    } catch (error) {
      strapi.log.error(`[billing] could not end billing of user ${userId} before deletion: ${(error as Error).message}`);
      throw new AppError(502, MESSAGES.deleteBlockedByBilling);
    }
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

    async subscribe(
      user: UserRecord,
      input: { plan_id: unknown; payment_method_id?: string | null; renews_at?: Date | null },
      actor: Actor,
    ): Promise<PaymentOutcome> {
      refuseAdmins(user);
      const plan = await requirePlan(input.plan_id, actor);
      // Checked and written under the user's lock: a double click is one subscription.
      return forUser(user.id, actor, async (user) => {
        refuseAdmins(user);
        const current = await currentOf(user);
        if (!mayReplace(current, actor)) throw conflict(actor === 'user' ? MESSAGES.alreadySubscribed : MESSAGES.userAlreadySubscribed);
        if (current && current.status === 'pending' && current.plan_id === plan.id) return pendingAgain(current);
        const handover: Handover = { replaces: current, reason: 'replaced', keepOnDecline: false };
        const liveAtStripe = Boolean(current?.stripe_subscription_id) && current?.status !== 'canceled';
        const outcome =
          actor === 'integration'
            ? await startFree(user, plan, handover, { renews_at: input.renews_at ?? null })
            : isFree(plan)
              ? await startFree(user, plan, handover)
              : await startPaid(user, plan, { paymentMethod: input.payment_method_id ?? null, actor, ...handover });
        if (current && current.id !== outcome.subscription.id) await releaseAtStripe(current, liveAtStripe);
        return outcome;
      });
    },

    async change(
      user: UserRecord,
      sub: SubscriptionRow,
      input: { plan_id: unknown; payment_method_id?: string | null; renews_at?: Date | null },
      actor: Actor,
    ): Promise<PaymentOutcome> {
      refuseAdmins(user);
      requireManagedBy(sub, actor, {
        app: validationError({ plan_id: [MESSAGES.onlyPlatformManagedChange] }),
        api: validationError({ plan_id: [MESSAGES.onlySelfManagedChange] }),
      });
      return forUser(user.id, actor, async (user) => {
        const current = await currentOf(user);
        if (!current || current.id !== sub.id) throw conflict(actor === 'integration' ? MESSAGES.onlyUsersCurrentChangeable : MESSAGES.onlyCurrentChangeable);
        const plan = await requirePlan(input.plan_id, actor);
        if (plan.id === current.plan_id) throw validationError({ plan_id: [MESSAGES.samePlan] });
        if (actor === 'integration') {
          // Nothing to pay here: the same subscription moves to the new plan (and period, when given).
          if (current.status !== 'active') throw conflict(MESSAGES.resumeBeforeChange);
          const period = input.renews_at === undefined ? {} : { renews_at: input.renews_at };
          const row = await activating(async () => activation.update(current.id, { plan_id: plan.id, status: 'active', ...period }, { status: 'active' }));
          if (!row) throw conflict(MESSAGES.resumeBeforeChange);
          return { kind: 'active', subscription: row };
        }
        const currentPlan = await plans().find(current.plan_id);
        const recurring = (p: PlanRow | null) => Boolean(p && !isFree(p) && (p.payment_schedule === 'monthly' || p.payment_schedule === 'yearly'));

        if (current.stripe_subscription_id && current.status === 'active' && recurring(currentPlan) && recurring(plan)) {
          const g = await gateway();
          return stripeCall(async () => {
            const price = await priceOf(plan, g);
            // Written under the customer's lock too, so a webhook's copy cannot land in between.
            return serialised(current.stripe_customer_id ?? String(current.id), async () => {
              const live = await g.retrieveSubscription(current.stripe_subscription_id!);
              const view = await g.changePrice(
                live,
                price,
                { branchify_user_id: String(user.id), branchify_plan_id: String(plan.id) },
                { charge: chargesCard(actor), idempotencyKey: `change:${current.id}:${plan.id}` },
              );
              const row = (await sync().subscription(view, { userId: user.id, planId: plan.id }))!;
              return outcomeOf(row, view.latest_invoice);
            });
          });
        }

        // Any other move (free ↔ paid, one-time ↔ recurring) starts the new plan and ends the old one.
        const handover: Handover = { replaces: current, reason: `changed to plan ${plan.id}`, keepOnDecline: actor === 'user' };
        const liveAtStripe = Boolean(current.stripe_subscription_id) && current.status !== 'canceled';
        const outcome = isFree(plan)
          ? await startFree(user, plan, handover)
          : await startPaid(user, plan, { paymentMethod: input.payment_method_id ?? null, actor, ...handover });
        if (outcome.kind === 'declined' && handover.keepOnDecline) {
          // The user stays on the plan they had; the declined attempt is given up (its invoice voided).
          await retire(outcome.subscription, 'payment declined');
          return outcome;
        }
        await releaseAtStripe(current, liveAtStripe);
        return outcome;
      });
    },

    async cancel(sub: SubscriptionRow, input: { immediately: boolean; reason: string | null }, actor: Actor): Promise<SubscriptionRow> {
      requireManagedBy(sub, actor, { app: conflict(MESSAGES.cannotCancelHere), api: conflict(MESSAGES.onlySelfManagedCancel) });
      return forUser(sub.user_id, actor, async () => {
        const fresh = (await subscriptions().findOne({ where: { id: sub.id } })) ?? sub;
        if (fresh.status !== 'active') throw conflict(MESSAGES.noActiveSubscriptionToCancel);
        const ended = { cancellation_reason: input.reason, canceled_by: actor };
        if (actor === 'integration') {
          // A self-managed period the integrator says is paid for runs out; otherwise it ends now.
          const now = new Date();
          const periodEnd = fresh.renews_at ? new Date(fresh.renews_at) : null;
          const atPeriodEnd = !input.immediately && periodEnd !== null && periodEnd > now;
          return subscriptions().update({
            where: { id: fresh.id },
            data: { status: 'canceled', canceled_at: atPeriodEnd ? periodEnd : now, cancel_at_period_end: atPeriodEnd, ...ended },
          });
        }
        const plan = await plans().find(fresh.plan_id);
        if (!fresh.stripe_subscription_id || !plan || plan.payment_schedule === 'one-time' || isFree(plan)) {
          // One-time (and free) plans always cancel immediately.
          return (await activation.update(fresh.id, { status: 'canceled', canceled_at: new Date(), cancel_at_period_end: false, ...ended }))!;
        }
        const g = await gateway();
        return stripeCall(async () => {
          return serialised(fresh.stripe_customer_id ?? String(fresh.id), async () => {
            const view = input.immediately
              ? await g.cancelNow(fresh.stripe_subscription_id!, `cancel-now:${fresh.id}:${Date.now()}`)
              : await g.setCancelAtPeriodEnd(fresh.stripe_subscription_id!, true, `cancel-end:${fresh.id}:${Date.now()}`);
            const row = (await sync().subscription(view))!;
            return subscriptions().update({ where: { id: row.id }, data: ended });
          });
        });
      });
    },

    /**
     * Resumes the user's current subscription when it is canceled: a user only what they cancelled
     * themselves, an admin also what an admin cancelled; a one-time plan only when it was paid.
     */
    async resume(user: UserRecord, sub: SubscriptionRow, actor: Actor): Promise<PaymentOutcome> {
      requireManagedBy(sub, actor, { app: conflict(MESSAGES.cannotResumeHere), api: conflict(MESSAGES.onlySelfManagedResume) });
      return forUser(user.id, actor, async (user) => {
        const current = await currentOf(user);
        if (!current || current.id !== sub.id) throw conflict(actor === 'integration' ? MESSAGES.onlyUsersCurrentResumable : MESSAGES.onlyCurrentResumable);
        if (current.status !== 'canceled') throw conflict(MESSAGES.onlyCanceledResumable);
        const by = current.canceled_by ?? null;
        if (!mayResume(by, actor)) {
          if (actor === 'integration') throw conflict(MESSAGES.subscriptionEndedByReplacement);
          throw by === 'admin' ? forbidden(MESSAGES.endedByAdministrator) : conflict(MESSAGES.subscriptionEnded);
        }
        const resumed = { canceled_at: null, cancel_at_period_end: false, cancellation_reason: null, canceled_by: null };

        if (!current.stripe_subscription_id) {
          const plan = await plans().find(current.plan_id);
          if (!plan) throw validationError({ plan_id: [MESSAGES.planNotAvailable] });
          // The integrator bills a self-managed plan itself; here only a paid purchase comes back.
          if (actor !== 'integration' && !isFree(plan) && !(await paidFor(current))) throw conflict(MESSAGES.neverPaid);
          const row = await activating(async () => (await activation.update(current.id, { status: 'active', ...resumed }))!);
          return { kind: 'active', subscription: row } as PaymentOutcome;
        }
        const g = await gateway();
        return stripeCall(async () => {
          const live = await g.retrieveSubscription(current.stripe_subscription_id!);
          if (live.status !== 'canceled' && live.status !== 'incomplete_expired') {
            return serialised(live.customer, async () => {
              const view = await g.setCancelAtPeriodEnd(live.id, false, `resume:${current.id}:${Date.now()}`);
              const row = await activating(async () => {
                const synced = (await sync().subscription(view, { makeCurrent: true }))!;
                return await subscriptions().update({ where: { id: synced.id }, data: { cancellation_reason: null, canceled_by: null } });
              });
              return outcomeOf(row, view.latest_invoice);
            });
          }
          // Fully ended on Stripe: resuming starts it again on the same plan (paid as any start is).
          const plan = await plans().find(current.plan_id);
          if (!plan) throw validationError({ plan_id: [MESSAGES.planNotAvailable] });
          return startPaid(user, plan, { paymentMethod: null, actor, replaces: current, reason: 'resumed', keepOnDecline: false });
        });
      });
    },

    /**
     * The integrator moves the end of a self-managed period (a renewal it billed, or none): only
     * on the user's current subscription while it is active.
     */
    async setRenewal(user: UserRecord, sub: SubscriptionRow, renewsAt: Date | null, actor: Actor): Promise<SubscriptionRow> {
      requireManagedBy(sub, actor, {
        app: validationError({ renews_at: [MESSAGES.onlyPlatformManagedChange] }),
        api: validationError({ renews_at: [MESSAGES.onlySelfManagedChange] }),
      });
      return forUser(user.id, actor, async (user) => {
        const current = await currentOf(user);
        if (!current || current.id !== sub.id) throw conflict(MESSAGES.onlyUsersCurrentChangeable);
        if (current.status !== 'active') throw conflict(MESSAGES.resumeBeforeChange);
        return subscriptions().update({ where: { id: current.id }, data: { renews_at: renewsAt } });
      });
    },

    /**
     * Deleting a user, as far as billing goes. The user is marked first, so a billing action refuses
     * from then on; then, under the user's lock (and their Stripe customer's, which webhooks take)
     * held throughout, every subscription still billing them is cancelled at Stripe, every open
     * invoice voided, and `remove` deletes their rows, so no billing action or webhook write can land
     * between the two. Refuses (502, the mark lifted, the account whole) when Stripe cannot be
     * reached, so a deleted user is never still charged.
     */
    async closeAccount<T>(user: Pick<UserRecord, 'id'>, remove: () => Promise<T>): Promise<T> {
      await users().updateMany({ where: { id: user.id }, data: { deletion_started_at: new Date() } });
      const close = async () => {
        await endAllAtStripe(user.id);
        return remove();
      };
      try {
        return await serialised(userLock(user.id), async () => {
          // Read under the user's lock: a subscribe that held it may just have made the customer.
          const customer = (await users().findOne({ where: { id: user.id }, select: ['id', 'stripe_customer_id'] }))?.stripe_customer_id;
          return customer ? serialised(customer, close) : close();
        });
      } catch (error) {
        await users().updateMany({ where: { id: user.id }, data: { deletion_started_at: null } });
        throw error;
      }
    },

    /** Deletes a user's subscriptions and invoices (Stripe keeps its own financial record). */
    async removeRowsOf(userId: number): Promise<void> {
      await strapi.db.transaction(async () => {
        await invoices().deleteMany({ where: { user_id: userId } });
        await subscriptions().deleteMany({ where: { user_id: userId } });
      });
    },

    /** Subscriptions (of any status) on a plan. */
    async subscriberCount(id: number): Promise<number> {
      return query(strapi, UID.subscription).count({ where: { plan_id: id } });
    },

    /** Subscriptions per plan, for a page of plans (plans without any are absent). */
    async subscriberCounts(ids: number[]): Promise<Map<number, number>> {
      const counts = new Map<number, number>();
      if (!ids.length) return counts;
      const rows: Array<{ plan_id: number; n: number | string }> = await strapi.db
        .connection('branchify_subscriptions')
        .select('plan_id')
        .count({ n: '*' })
        .whereIn('plan_id', ids)
        .groupBy('plan_id');
      for (const row of rows) counts.set(Number(row.plan_id), Number(row.n));
      return counts;
    },

    /**
     * The database's own guard: at most one active subscription per user (a partial unique index).
     * Also: invoice amounts hold three decimals (BHD, KWD…); a PostgreSQL column made with two
     * (Strapi's decimal before) is widened, which Strapi's schema sync does not do itself.
     */
    async ensureConstraints(): Promise<void> {
      if (strapi.db.dialect.client === 'postgres') {
        const narrow = rawRows<{ column_name: string }>(
          await strapi.db.connection.raw(
            `SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = 'branchify_invoices' AND column_name IN ('amount', 'amount_refunded') AND numeric_scale < 3`,
            [env().DATABASE_SCHEMA],
          ),
        );
        for (const { column_name } of narrow) {
          await strapi.db.connection.raw(`ALTER TABLE branchify_invoices ALTER COLUMN ${column_name} TYPE numeric(${MONEY_COLUMN.join(', ')})`);
          strapi.log.info(`[billing] branchify_invoices.${column_name} now holds three decimals`);
        }
      }
      try {
        await strapi.db.connection.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ${ONE_ACTIVE_INDEX} ON branchify_subscriptions (user_id) WHERE status = 'active'`);
      } catch (error) {
        strapi.log.error(
          `[billing] could not add ${ONE_ACTIVE_INDEX} (users with two active subscriptions must be resolved first): ${(error as Error).message}`,
        );
      }
    },

    async invoicesOf(sub: SubscriptionRow): Promise<InvoiceRow[]> {
      return invoices().findMany({ where: { subscription_id: sub.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    },

    /** Every invoice of the user, of every subscription they had, newest first. */
    async invoicesOfUser(userId: number): Promise<InvoiceRow[]> {
      return invoices().findMany({ where: { user_id: userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    },

    /** Invoices as the API shows them, each with the plan it was for (recorded on it, else its subscription's). */
    async presentInvoices(rows: InvoiceRow[]): Promise<InvoiceResource[]> {
      const unplanned = [...new Set(rows.filter((r) => !r.plan_id && r.subscription_id).map((r) => r.subscription_id!))];
      const subs = unplanned.length ? await subscriptions().findMany({ where: { id: { $in: unplanned } }, select: ['id', 'plan_id'] }) : [];
      const planOfSub = new Map(subs.map((s) => [s.id, s.plan_id]));
      const planIds = [
        ...new Set(rows.map((r) => r.plan_id ?? (r.subscription_id ? planOfSub.get(r.subscription_id) : undefined)).filter((id): id is number => Boolean(id))),
      ];
      const found = planIds.length ? await query(strapi, UID.plan).findMany({ where: { id: { $in: planIds } }, select: ['id', 'name'] }) : [];
      const byId = new Map(found.map((p) => [p.id, p]));
      return rows.map((row) => {
        const planId = row.plan_id ?? (row.subscription_id ? planOfSub.get(row.subscription_id) : undefined);
        return presentInvoice(row, (planId && byId.get(planId)) || null);
      });
    },

    async findInvoice(sub: SubscriptionRow, invoiceId: unknown): Promise<InvoiceRow> {
      const key = typeof invoiceId === 'number' || /^\d+$/.test(String(invoiceId)) ? { id: Number(invoiceId) } : { invoice_id: String(invoiceId ?? '') };
      const row = await invoices().findOne({ where: { ...key, subscription_id: sub.id } });
      if (!row) throw notFound();
      return row;
    },

    /** Pays an open invoice with the user's default card; success activates the subscription. */
    async payInvoice(user: UserRecord, sub: SubscriptionRow, invoice: InvoiceRow): Promise<PaymentOutcome> {
      if (invoice.status !== 'open') throw conflict(MESSAGES.invoiceNotOpen);
      const g = await gateway();
      return forUser(user.id, 'user', (user) =>
        stripeCall(async () => {
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
            const row = await activating(async () => (await activation.update(sub.id, { status, payment_method_id: card.id }))!);
            await setCurrent(user.id, row.id);
            return outcomeOf(row, paid);
          });
        }),
      );
    },

    /**
     * Refunds: only a paid invoice, 0 < amount ≤ what is still unrefunded of it (the whole rest when
     * no amount is given). Partial refunds may follow each other until the total went back; the
     * invoice is 'refunded' only then and stays 'paid' (with the refunded amount) until then.
     */
    async refund(sub: SubscriptionRow, invoice: InvoiceRow, amount: number | undefined): Promise<InvoiceRow> {
      if (invoice.status === 'refunded') throw conflict(MESSAGES.alreadyRefunded);
      if (invoice.status !== 'paid') throw validationError({ invoice_id: [MESSAGES.invoiceMayBePending] }, MESSAGES.invoiceMayBePending);
      const currency = invoice.currency ?? 'usd';
      const left = refundableMinor(invoice);
      if (left <= 0) throw conflict(MESSAGES.alreadyRefunded);
      if (amount !== undefined && amount <= 0) throw validationError({ refund_amount: [MESSAGES.refundAmountPositive] });
      if (amount !== undefined && !fitsCurrency(amount, currency)) {
        throw validationError({ refund_amount: [messageTemplates.tooManyDecimals('refund amount', currency, currencyRule(currency).decimals)] });
      }
      // Compared and sent in Stripe's minor units of the invoice's currency.
      const requested = amount === undefined ? left : toMinor(amount, currency);
      if (requested > toMinor(Number(invoice.amount ?? 0), currency)) throw validationError({ refund_amount: [MESSAGES.refundExceedsAmount] });
      if (requested > left)
        throw validationError({ refund_amount: [messageTemplates.refundExceedsRemaining(formatMoney(fromMinor(left, currency), currency))] });
      const before = toMinor(Number(invoice.amount_refunded ?? 0), currency);
      const g = await gateway();
      return stripeCall(async () => {
        const live = await g.retrieveInvoice(invoice.invoice_id!);
        if (!live.payment_intent) throw validationError({ invoice_id: [MESSAGES.invoiceMayBePending] }, MESSAGES.invoiceMayBePending);
        // One key per refund of this invoice: a retry is the same refund, the next partial refund a
        // new one. No amount asks Stripe for all that is left (also what a refund elsewhere left).
        const asked = amount === undefined ? undefined : requested;
        const refund = await g.refund(live.payment_intent.id, asked, `refund:${invoice.invoice_id}:${before}:${asked ?? 'rest'}`);
        strapi.log.info(`[billing] refunded ${refund.amount} ${refund.currency} of invoice ${invoice.invoice_id} (subscription ${sub.id})`);
        const after = before + refund.amount;
        return invoices().update({
          where: { id: invoice.id },
          data: { ...refundState(Number(invoice.amount ?? 0), after, currency) },
        });
      });
    },

    async paymentMethod(user: UserRecord) {
      if (!(await settings().configured())) return null;
      const row = await users().findOne({ where: { id: user.id }, select: ['id', 'stripe_customer_id'] });
      const customer = row?.stripe_customer_id;
      if (!customer) return null;
      const g = await gateway();
      return stripeCall(() => g.defaultCard(customer));
    },

    async setPaymentMethod(user: UserRecord, paymentMethod: string) {
      const g = await gateway();
      return forUser(user.id, 'user', (user) =>
        stripeCall(async () => {
          const customer = await customerOf(user, g);
          const card = await serialised(customer, () => g.attachDefaultCard(customer, paymentMethod));
          await subscriptions().updateMany({ where: { user_id: user.id, status: { $ne: 'canceled' } }, data: { payment_method_id: card.id } });
          return card;
        }),
      );
    },
  };
  return service;
};
