import { MESSAGES, grantsAccess } from '@branchify/shared';
import { badGateway } from '../http/errors';
import { durableTransaction } from '../utils/durable-transaction';
import type { UserRecord } from '../content-types/users-permissions';
import { userLock, type BillingContext } from './context';
import { serialised } from './customer-lock';

/** Every subscription still billing the user is cancelled at Stripe and every open invoice voided (502 when Stripe cannot). */
const endAllAtStripe = async (ctx: BillingContext, userId: number): Promise<void> => {
  const rows = await ctx.subscriptions().findMany({ where: { user_id: userId } });
  const billed = rows.filter((r) => r.stripe_subscription_id && (r.status !== 'canceled' || grantsAccess(r)));
  const open = await ctx.invoices().findMany({ where: { user_id: userId, status: 'open' } });
  if (!billed.length && !open.length) return;
  try {
    const g = await ctx.gateway();
    for (const row of billed) {
      const live = await g.retrieveSubscription(row.stripe_subscription_id!);
      if (live.status !== 'canceled' && live.status !== 'incomplete_expired') await g.cancelNow(live.id, `delete-user:${row.id}`);
    }
    for (const invoice of open) if (invoice.invoice_id) await g.voidInvoice(invoice.invoice_id, `void:${invoice.invoice_id}`);
  } catch (error) {
    ctx.strapi.log.error(`[billing] could not end billing of user ${userId} before deletion: ${(error as Error).message}`);
    throw badGateway(MESSAGES.deleteBlockedByBilling);
  }
};

/**
 * Deleting a user, as far as billing goes. The user is marked first, so a billing action refuses
 * from then on; then, under the user's lock (and their Stripe customer's, which webhooks take)
 * held throughout, every subscription still billing them is cancelled at Stripe, every open
 * invoice voided, and `remove` deletes their rows, so no billing action or webhook write can land
 * between the two. Refuses (502, the mark lifted, the account whole) when Stripe cannot be
 * reached, so a deleted user is never still charged.
 */
export const closeAccount = async <T>(ctx: BillingContext, user: Pick<UserRecord, 'id'>, remove: () => Promise<T>): Promise<T> => {
  await ctx.users().updateMany({ where: { id: user.id }, data: { deletion_started_at: new Date() } });
  const close = async () => {
    await endAllAtStripe(ctx, user.id);
    return remove();
  };
  try {
    return await serialised(userLock(user.id), async () => {
      // Read under the user's lock: a subscribe that held it may just have made the customer.
      const customer = (await ctx.users().findOne({ where: { id: user.id }, select: ['id', 'stripe_customer_id'] }))?.stripe_customer_id;
      return customer ? serialised(customer, close) : close();
    });
  } catch (error) {
    await ctx.users().updateMany({ where: { id: user.id }, data: { deletion_started_at: null } });
    throw error;
  }
};

/** Deletes a user's subscriptions and invoices (Stripe keeps its own financial record). */
export const removeRowsOf = async (ctx: BillingContext, userId: number): Promise<void> => {
  await durableTransaction(ctx.strapi, async () => {
    await ctx.invoices().deleteMany({ where: { user_id: userId } });
    await ctx.subscriptions().deleteMany({ where: { user_id: userId } });
  });
};
