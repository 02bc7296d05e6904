import { MESSAGES } from '@branchify/shared';
import { conflict, forbidden, validationError } from '../http/errors';
import { isFree } from '../plans/present';
import type { UserRecord } from '../content-types/users-permissions';
import type { SubscriptionRow } from '../content-types/subscription';
import type { BillingContext } from './context';
import { currentOf } from './current';
import { requireManagedBy } from './guards';
import { outcomeOf, type PaymentOutcome } from './outcome';
import { mayResume, type Actor } from './policy';
import { startPaid } from './start';
import { serialised } from './customer-lock';

export const cancel = async (
  ctx: BillingContext,
  sub: SubscriptionRow,
  input: { immediately: boolean; reason: string | null },
  actor: Actor,
): Promise<SubscriptionRow> => {
  requireManagedBy(sub, actor, { app: conflict(MESSAGES.cannotCancelHere), api: conflict(MESSAGES.onlySelfManagedCancel) });
  return ctx.forUser(sub.user_id, actor, async () => {
    const fresh = (await ctx.subscriptions().findOne({ where: { id: sub.id } })) ?? sub;
    if (fresh.status !== 'active') throw conflict(MESSAGES.noActiveSubscriptionToCancel);
    const ended = { cancellation_reason: input.reason, canceled_by: actor };
    if (actor === 'integration') {
      // A self-managed period the integrator says is paid for runs out; otherwise it ends now.
      const now = new Date();
      const periodEnd = fresh.renews_at ? new Date(fresh.renews_at) : null;
      const atPeriodEnd = !input.immediately && periodEnd !== null && periodEnd > now;
      return ctx.subscriptions().update({
        where: { id: fresh.id },
        data: { status: 'canceled', canceled_at: atPeriodEnd ? periodEnd : now, cancel_at_period_end: atPeriodEnd, ...ended },
      });
    }
    const plan = await ctx.plans().find(fresh.plan_id);
    if (!fresh.stripe_subscription_id || !plan || plan.payment_schedule === 'one-time' || isFree(plan)) {
      // One-time (and free) plans always cancel immediately.
      return (await ctx.activation.update(fresh.id, { status: 'canceled', canceled_at: new Date(), cancel_at_period_end: false, ...ended }))!;
    }
    const g = await ctx.gateway();
    return ctx.stripeCall(async () => {
      return serialised(fresh.stripe_customer_id ?? String(fresh.id), async () => {
        const view = input.immediately
          ? await g.cancelNow(fresh.stripe_subscription_id!, `cancel-now:${fresh.id}:${Date.now()}`)
          : await g.setCancelAtPeriodEnd(fresh.stripe_subscription_id!, true, `cancel-end:${fresh.id}:${Date.now()}`);
        const row = (await ctx.sync().subscription(view))!;
        return ctx.subscriptions().update({ where: { id: row.id }, data: ended });
      });
    });
  });
};

/** Whether a one-time purchase was paid (and not refunded since). */
const paidFor = async (ctx: BillingContext, row: SubscriptionRow): Promise<boolean> =>
  (await ctx.invoices().count({ where: { subscription_id: row.id, status: 'paid' } })) > 0;

/**
 * Resumes the user's current subscription when it is canceled: a user only what they cancelled
 * themselves, an admin also what an admin cancelled; a one-time plan only when it was paid.
 */
export const resume = async (ctx: BillingContext, user: UserRecord, sub: SubscriptionRow, actor: Actor): Promise<PaymentOutcome> => {
  requireManagedBy(sub, actor, { app: conflict(MESSAGES.cannotResumeHere), api: conflict(MESSAGES.onlySelfManagedResume) });
  return ctx.forUser(user.id, actor, async (user) => {
    const current = await currentOf(ctx, user);
    if (!current || current.id !== sub.id) throw conflict(actor === 'integration' ? MESSAGES.onlyUsersCurrentResumable : MESSAGES.onlyCurrentResumable);
    if (current.status !== 'canceled') throw conflict(MESSAGES.onlyCanceledResumable);
    const by = current.canceled_by ?? null;
    if (!mayResume(by, actor)) {
      if (actor === 'integration') throw conflict(MESSAGES.subscriptionEndedByReplacement);
      throw by === 'admin' ? forbidden(MESSAGES.endedByAdministrator) : conflict(MESSAGES.subscriptionEnded);
    }
    return current.stripe_subscription_id ? resumeAtStripe(ctx, user, current, actor) : resumeHere(ctx, current, actor);
  });
};

/** A row without a Stripe subscription (one-time, free, self-managed) comes back here alone. */
const resumeHere = async (ctx: BillingContext, current: SubscriptionRow, actor: Actor): Promise<PaymentOutcome> => {
  const resumed = { canceled_at: null, cancel_at_period_end: false, cancellation_reason: null, canceled_by: null };
  const plan = await ctx.plans().find(current.plan_id);
  if (!plan) throw validationError({ plan_id: [MESSAGES.planNotAvailable] });
  // The integrator bills a self-managed plan itself; here only a paid purchase comes back.
  if (actor !== 'integration' && !isFree(plan) && !(await paidFor(ctx, current))) throw conflict(MESSAGES.neverPaid);
  const row = await ctx.activating(async () => (await ctx.activation.update(current.id, { status: 'active', ...resumed }))!);
  return { kind: 'active', subscription: row };
};

/** A Stripe subscription still live stops its cancellation; one fully ended starts again on the same plan. */
const resumeAtStripe = async (ctx: BillingContext, user: UserRecord, current: SubscriptionRow, actor: Actor): Promise<PaymentOutcome> => {
  const g = await ctx.gateway();
  return ctx.stripeCall(async () => {
    const live = await g.retrieveSubscription(current.stripe_subscription_id!);
    if (live.status !== 'canceled' && live.status !== 'incomplete_expired') {
      return serialised(live.customer, async () => {
        const view = await g.setCancelAtPeriodEnd(live.id, false, `resume:${current.id}:${Date.now()}`);
        const row = await ctx.activating(async () => {
          const synced = (await ctx.sync().subscription(view, { makeCurrent: true }))!;
          return await ctx.subscriptions().update({ where: { id: synced.id }, data: { cancellation_reason: null, canceled_by: null } });
        });
        return outcomeOf(row, view.latest_invoice);
      });
    }
    // Fully ended on Stripe: resuming starts it again on the same plan (paid as any start is).
    const plan = await ctx.plans().find(current.plan_id);
    if (!plan) throw validationError({ plan_id: [MESSAGES.planNotAvailable] });
    return startPaid(ctx, user, plan, { paymentMethod: null, actor, replaces: current, reason: 'resumed', keepOnDecline: false });
  });
};
