import { toMinor } from '@branchify/shared';
import { isFree } from '../plans/present';
import type { PlanRow } from '../content-types/plan';
import type { BillingContext } from './context';
import type { StripeGateway } from './gateway';

// A plan as billing sees it: its Stripe price and its subscribers.

/**
 * The plan's Stripe price, made on first need. A stored price is checked against the plan (a
 * price made before amounts were scaled per currency charges the wrong amount): one that does not
 * match is replaced by a new one.
 */
export const priceOf = async (ctx: BillingContext, plan: PlanRow, g: StripeGateway): Promise<string> => {
  const interval = plan.payment_schedule === 'monthly' ? 'month' : plan.payment_schedule === 'yearly' ? 'year' : null;
  const amount = toMinor(plan.price, plan.currency);
  if (plan.stripe_price_id) {
    const stored = await g.retrievePrice(plan.stripe_price_id);
    if (stored.unit_amount === amount && stored.currency === plan.currency.toLowerCase() && stored.interval === interval) return plan.stripe_price_id;
    ctx.strapi.log.warn(
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
  await ctx.plans().setStripeIds(plan.id, { stripe_product_id: productId, stripe_price_id: priceId });
  return priceId;
};

/**
 * Mirrors a paid plan to a Stripe product and price when it is saved, so the first sale does
 * not pay for it. Best effort: without Stripe (or with Stripe down) the price is made at sale.
 */
export const mirrorPlan = async (ctx: BillingContext, plan: PlanRow): Promise<void> => {
  if (isFree(plan) || plan.stripe_price_id || !(await ctx.settings().configured())) return;
  try {
    await priceOf(ctx, plan, await ctx.gateway());
  } catch (error) {
    ctx.strapi.log.warn(`[billing] could not mirror plan ${plan.id} to Stripe yet: ${(error as Error).message}`);
  }
};

/** Subscriptions (of any status) on a plan. */
export const subscriberCount = async (ctx: BillingContext, id: number): Promise<number> => ctx.subscriptions().count({ where: { plan_id: id } });

/** Subscriptions per plan, for a page of plans (plans without any are absent). */
export const subscriberCounts = async ({ strapi }: BillingContext, ids: number[]): Promise<Map<number, number>> => {
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
};
