import type { UserRecord } from '../content-types/users-permissions';
import type { SubscriptionRow } from '../content-types/subscription';
import type { BillingContext } from './context';
import type { StripeGateway } from './gateway';

/** The user's current subscription, read afresh (null when they have none). */
export const currentOf = async (ctx: BillingContext, user: Pick<UserRecord, 'id' | 'subscription_id'>): Promise<SubscriptionRow | null> => {
  const fresh = await ctx.users().findOne({ where: { id: user.id }, select: ['id', 'subscription_id'] });
  if (!fresh?.subscription_id) return null;
  return ctx.subscriptions().findOne({ where: { id: fresh.subscription_id, user_id: user.id } });
};

export const setCurrent = (ctx: BillingContext, userId: number, subscriptionId: number) =>
  ctx.users().update({ where: { id: userId }, data: { subscription_id: subscriptionId } });

/** The user's Stripe customer, made on first need. */
export const customerOf = async (ctx: BillingContext, user: UserRecord, g: StripeGateway): Promise<string> => {
  const row = await ctx.users().findOne({ where: { id: user.id }, select: ['id', 'stripe_customer_id'] });
  if (row?.stripe_customer_id) return row.stripe_customer_id;
  const id = await g.createCustomer({ email: user.email, name: `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim(), userId: user.id });
  await ctx.users().update({ where: { id: user.id }, data: { stripe_customer_id: id } });
  return id;
};
