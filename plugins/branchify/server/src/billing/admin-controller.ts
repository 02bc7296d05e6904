import { MESSAGES, adminSubscribeSchema, cancelSchema, changeSchema, refundSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { notFound } from '../http/errors';
import { routeId } from '../http/params';
import { ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { respondOutcome } from './controller';
import { presentSubscription } from './present';
import type { UserRecord } from '../content-types/users-permissions';
import type { SubscriptionRow } from '../content-types/subscription';
import { signedInUser } from '../http/request-state';

/** Subscriptions, invoices and refunds as an admin runs them for any user. */
export default ({ strapi }: { strapi: Strapi }) => {
  const billing = () => getService(strapi, 'billing');
  const plans = () => getService(strapi, 'plans');
  const admin = () => getService(strapi, 'billing-administration');

  const subscription = async (ctx: Context, param = 'id'): Promise<{ sub: SubscriptionRow; user: UserRecord }> => {
    const sub = await query(strapi, UID.subscription).findOne({ where: { id: routeId(ctx, param) } });
    if (!sub) throw notFound();
    return { sub, user: await admin().userById(sub.user_id) };
  };

  return {
    async forUser(ctx: Context) {
      const row = await admin().currentFor(routeId(ctx, 'userId'));
      ok(ctx, row ? presentSubscription(row, await plans().find(row.plan_id)) : null);
    },

    async create(ctx: Context) {
      const input = parse(adminSubscribeSchema, ctx.request.body);
      await respondOutcome(strapi, ctx, await admin().subscribe(input, signedInUser(ctx).id), MESSAGES.subscriptionPlanAdded, 201);
    },

    async change(ctx: Context) {
      const { sub, user } = await subscription(ctx);
      const outcome = await admin().change(user, sub, parse(changeSchema, ctx.request.body));
      await respondOutcome(strapi, ctx, outcome, MESSAGES.subscriptionPlanChanged);
    },

    async cancel(ctx: Context) {
      const { sub } = await subscription(ctx);
      const input = parse(cancelSchema, ctx.request.body ?? {});
      const row = await admin().cancel(sub, input, signedInUser(ctx).id);
      ok(ctx, presentSubscription(row, await plans().find(row.plan_id)), MESSAGES.subscriptionCancelled);
    },

    async resume(ctx: Context) {
      const { sub, user } = await subscription(ctx);
      await respondOutcome(strapi, ctx, await billing().resume(user, sub, 'admin'), MESSAGES.subscriptionResumed);
    },

    async invoices(ctx: Context) {
      const { sub } = await subscription(ctx);
      ok(ctx, await billing().presentInvoices(await billing().invoicesOf(sub)));
    },

    /** Every invoice of the user, of every subscription they had, newest first. */
    async invoicesOfUser(ctx: Context) {
      const user = await admin().userById(routeId(ctx, 'userId'));
      ok(ctx, await billing().presentInvoices(await billing().invoicesOfUser(user.id)));
    },

    async refund(ctx: Context) {
      const { sub } = await subscription(ctx, 'subscriptionId');
      const input = parse(refundSchema, ctx.request.body);
      const row = await admin().refund(sub, input.invoice_id, input.amount, signedInUser(ctx).id);
      ok(ctx, (await billing().presentInvoices([row]))[0], MESSAGES.invoiceRefunded);
    },
  };
};
