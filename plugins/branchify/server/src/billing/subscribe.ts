import { MESSAGES } from '@branchify/shared';
import { conflict } from '../http/errors';
import { isFree } from '../plans/present';
import type { UserRecord } from '../content-types/users-permissions';
import type { SubscriptionRow } from '../content-types/subscription';
import type { BillingContext } from './context';
import { currentOf } from './current';
import { requirePlan, refuseAdmins } from './guards';
import { openInvoicesOf, releaseAtStripe, type Handover } from './handover';
import { outcomeOf, type PaymentOutcome } from './outcome';
import { mayReplace, type Actor } from './policy';
import { startFree, startPaid } from './start';

export interface SubscribeInput {
  plan_id: unknown;
  payment_method_id?: string | null;
  renews_at?: Date | null;
}

/** The same purchase still waiting for 3-D Secure: the same challenge again, not a second purchase. */
const pendingAgain = async (ctx: BillingContext, row: SubscriptionRow): Promise<PaymentOutcome> => {
  const g = await ctx.gateway();
  return ctx.stripeCall(async () => {
    if (row.stripe_subscription_id) return outcomeOf(row, (await g.retrieveSubscription(row.stripe_subscription_id)).latest_invoice);
    const invoice = (await openInvoicesOf(ctx, row))[0];
    return outcomeOf(row, invoice?.invoice_id ? await g.retrieveInvoice(invoice.invoice_id) : null);
  });
};

/**
 * Starts a plan for a user: paid through Stripe, free, or (through the API) self-managed. The
 * subscription it replaces, if any, ends and is released at Stripe.
 */
export const subscribe = async (ctx: BillingContext, user: UserRecord, input: SubscribeInput, actor: Actor): Promise<PaymentOutcome> => {
  refuseAdmins(user);
  const plan = await requirePlan(ctx, input.plan_id, actor);
  // Checked and written under the user's lock: a double click is one subscription.
  return ctx.forUser(user.id, actor, async (user) => {
    refuseAdmins(user);
    const current = await currentOf(ctx, user);
    if (!mayReplace(current, actor)) throw conflict(actor === 'user' ? MESSAGES.alreadySubscribed : MESSAGES.userAlreadySubscribed);
    if (current && current.status === 'pending' && current.plan_id === plan.id) return pendingAgain(ctx, current);
    const handover: Handover = { replaces: current, reason: 'replaced', keepOnDecline: false };
    const liveAtStripe = Boolean(current?.stripe_subscription_id) && current?.status !== 'canceled';
    const outcome =
      actor === 'integration'
        ? await startFree(ctx, user, plan, handover, { renews_at: input.renews_at ?? null })
        : isFree(plan)
          ? await startFree(ctx, user, plan, handover)
          : await startPaid(ctx, user, plan, { paymentMethod: input.payment_method_id ?? null, actor, ...handover });
    if (current && current.id !== outcome.subscription.id) await releaseAtStripe(ctx, current, liveAtStripe);
    return outcome;
  });
};
