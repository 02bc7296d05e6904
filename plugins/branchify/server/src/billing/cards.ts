import type { UserRecord } from '../content-types/users-permissions';
import type { BillingContext } from './context';
import { customerOf } from './current';
import { serialised } from './customer-lock';

/** The user's default card at Stripe (null without Stripe or a customer). */
export const paymentMethod = async (ctx: BillingContext, user: UserRecord) => {
  if (!(await ctx.settings().configured())) return null;
  const row = await ctx.users().findOne({ where: { id: user.id }, select: ['id', 'stripe_customer_id'] });
  const customer = row?.stripe_customer_id;
  if (!customer) return null;
  const g = await ctx.gateway();
  return ctx.stripeCall(() => g.defaultCard(customer));
};

/** Makes a card the user's default, for every subscription of theirs still running too. */
export const setPaymentMethod = async (ctx: BillingContext, user: UserRecord, paymentMethod: string) => {
  const g = await ctx.gateway();
  return ctx.forUser(user.id, 'user', (user) =>
    ctx.stripeCall(async () => {
      const customer = await customerOf(ctx, user, g);
      const card = await serialised(customer, () => g.attachDefaultCard(customer, paymentMethod));
      await ctx.subscriptions().updateMany({ where: { user_id: user.id, status: { $ne: 'canceled' } }, data: { payment_method_id: card.id } });
      return card;
    }),
  );
};
