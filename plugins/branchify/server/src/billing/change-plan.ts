import { MESSAGES } from '@branchify/shared';
import { conflict, validationError } from '../http/errors';
import { isFree } from '../plans/present';
import type { PlanRow } from '../content-types/plan';
import type { UserRecord } from '../content-types/users-permissions';
import type { SubscriptionRow } from '../content-types/subscription';
import type { BillingContext } from './context';
import { currentOf } from './current';
import { requireManagedBy, requirePlan, refuseAdmins } from './guards';
import { releaseAtStripe, retire, type Handover } from './handover';
import { outcomeOf, type PaymentOutcome } from './outcome';
import { priceOf } from './plans';
import { chargesCard, type Actor } from './policy';
import { startFree, startPaid } from './start';
import type { SubscribeInput } from './subscribe';
import { serialised } from './customer-lock';

const recurring = (p: PlanRow | null) => Boolean(p && !isFree(p) && (p.payment_schedule === 'monthly' || p.payment_schedule === 'yearly'));

/** Moves a user's current subscription to another plan. */
export const change = async (ctx: BillingContext, user: UserRecord, sub: SubscriptionRow, input: SubscribeInput, actor: Actor): Promise<PaymentOutcome> => {
  refuseAdmins(user);
  requireManagedBy(sub, actor, {
    app: validationError({ plan_id: [MESSAGES.onlyPlatformManagedChange] }),
    api: validationError({ plan_id: [MESSAGES.onlySelfManagedChange] }),
  });
  return ctx.forUser(user.id, actor, async (user) => {
    const current = await currentOf(ctx, user);
    if (!current || current.id !== sub.id) throw conflict(actor === 'integration' ? MESSAGES.onlyUsersCurrentChangeable : MESSAGES.onlyCurrentChangeable);
    const plan = await requirePlan(ctx, input.plan_id, actor);
    if (plan.id === current.plan_id) throw validationError({ plan_id: [MESSAGES.samePlan] });
    if (actor === 'integration') return moveSelfManaged(ctx, current, plan, input);
    const currentPlan = await ctx.plans().find(current.plan_id);
    if (current.stripe_subscription_id && current.status === 'active' && recurring(currentPlan) && recurring(plan)) {
      return changePrice(ctx, user, current, plan, actor);
    }
    return replacePlan(ctx, user, current, plan, input, actor);
  });
};

/** Nothing to pay here: the same subscription moves to the new plan (and period, when given). */
const moveSelfManaged = async (ctx: BillingContext, current: SubscriptionRow, plan: PlanRow, input: SubscribeInput): Promise<PaymentOutcome> => {
  if (current.status !== 'active') throw conflict(MESSAGES.resumeBeforeChange);
  const period = input.renews_at === undefined ? {} : { renews_at: input.renews_at };
  const row = await ctx.activating(async () => ctx.activation.update(current.id, { plan_id: plan.id, status: 'active', ...period }, { status: 'active' }));
  if (!row) throw conflict(MESSAGES.resumeBeforeChange);
  return { kind: 'active', subscription: row };
};

/** Recurring to recurring: the Stripe subscription moves to the new price, the difference invoiced now. */
const changePrice = async (ctx: BillingContext, user: UserRecord, current: SubscriptionRow, plan: PlanRow, actor: Actor): Promise<PaymentOutcome> => {
  const g = await ctx.gateway();
  return ctx.stripeCall(async () => {
    const price = await priceOf(ctx, plan, g);
    // Written under the customer's lock too, so a webhook's copy cannot land in between.
    return serialised(current.stripe_customer_id ?? String(current.id), async () => {
      const live = await g.retrieveSubscription(current.stripe_subscription_id!);
      const view = await g.changePrice(
        live,
        price,
        { branchify_user_id: String(user.id), branchify_plan_id: String(plan.id) },
        { charge: chargesCard(actor), idempotencyKey: `change:${current.id}:${plan.id}` },
      );
      const row = (await ctx.sync().subscription(view, { userId: user.id, planId: plan.id }))!;
      return outcomeOf(row, view.latest_invoice);
    });
  });
};

/** Any other move (free ↔ paid, one-time ↔ recurring) starts the new plan and ends the old one. */
const replacePlan = async (
  ctx: BillingContext,
  user: UserRecord,
  current: SubscriptionRow,
  plan: PlanRow,
  input: SubscribeInput,
  actor: Actor,
): Promise<PaymentOutcome> => {
  const handover: Handover = { replaces: current, reason: `changed to plan ${plan.id}`, keepOnDecline: actor === 'user' };
  const liveAtStripe = Boolean(current.stripe_subscription_id) && current.status !== 'canceled';
  const outcome = isFree(plan)
    ? await startFree(ctx, user, plan, handover)
    : await startPaid(ctx, user, plan, { paymentMethod: input.payment_method_id ?? null, actor, ...handover });
  if (outcome.kind === 'declined' && handover.keepOnDecline) {
    // The user stays on the plan they had; the declined attempt is given up (its invoice voided).
    await retire(ctx, outcome.subscription, 'payment declined');
    return outcome;
  }
  await releaseAtStripe(ctx, current, liveAtStripe);
  return outcome;
};

/**
 * The integrator moves the end of a self-managed period (a renewal it billed, or none): only
 * on the user's current subscription while it is active.
 */
export const setRenewal = async (
  ctx: BillingContext,
  user: UserRecord,
  sub: SubscriptionRow,
  renewsAt: Date | null,
  actor: Actor,
): Promise<SubscriptionRow> => {
  requireManagedBy(sub, actor, {
    app: validationError({ renews_at: [MESSAGES.onlyPlatformManagedChange] }),
    api: validationError({ renews_at: [MESSAGES.onlySelfManagedChange] }),
  });
  return ctx.forUser(user.id, actor, async (user) => {
    const current = await currentOf(ctx, user);
    if (!current || current.id !== sub.id) throw conflict(MESSAGES.onlyUsersCurrentChangeable);
    if (current.status !== 'active') throw conflict(MESSAGES.resumeBeforeChange);
    return ctx.subscriptions().update({ where: { id: current.id }, data: { renews_at: renewsAt } });
  });
};
