import { MESSAGES, adminSubscribeSchema, cancelSchema, changeSchema, refundSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { notFound, validationError } from '../http/errors';
import { routeId } from '../http/params';
import { ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import type { UserRecord } from '../users/serialize';
import { respondOutcome } from './controller';
import { presentInvoice, presentSubscription, type SubscriptionRow } from './records';

/** Subscriptions, invoices and refunds as an admin runs them for any user. */
export default ({ strapi }: { strapi: Strapi }) => {
  const billing = () => getService(strapi, 'billing');
  const plans = () => getService(strapi, 'plans');

  const userById = async (id: number): Promise<UserRecord> => {
    const user = await getService(strapi, 'users').findRecord(id);
    if (!user) throw notFound();
    return user;
  };

  const subscription = async (ctx: Context, param = 'id'): Promise<{ sub: SubscriptionRow; user: UserRecord }> => {
    const sub = await query(strapi, UID.subscription).findOne({ where: { id: routeId(ctx, param) } });
    if (!sub) throw notFound();
    return { sub, user: await userById(sub.user_id) };
  };

  return {
    async forUser(ctx: Context) {
      const user = await userById(routeId(ctx, 'userId'));
      const row = await billing().currentOf(user);
      ok(ctx, row ? presentSubscription(row, await plans().find(row.plan_id)) : null);
    },

    async create(ctx: Context) {
      const input = parse(adminSubscribeSchema, ctx.request.body);
      const user = await userById(input.user_id);
      const outcome = await billing().subscribe(user, input, 'admin');
      strapi.log.info(`[billing] admin ${ctx.state.branchifyUser.id} added plan ${input.plan_id} for user ${user.id} (${outcome.kind})`);
      // An admin never charges a card: an unpaid invoice is the user's to pay on login.
      await respondOutcome(strapi, ctx, outcome.kind === 'declined' ? { ...outcome, kind: 'awaiting_payment' } : outcome, MESSAGES.subscriptionPlanAdded, 201);
    },

    async change(ctx: Context) {
      const { sub, user } = await subscription(ctx);
      const outcome = await billing().change(user, sub, parse(changeSchema, ctx.request.body), 'admin');
      await respondOutcome(strapi, ctx, outcome.kind === 'declined' ? { ...outcome, kind: 'awaiting_payment' } : outcome, MESSAGES.subscriptionPlanChanged);
    },

    async cancel(ctx: Context) {
      const { sub } = await subscription(ctx);
      const input = parse(cancelSchema, ctx.request.body ?? {});
      if (!input.reason) throw validationError({ cancellation_note: [MESSAGES.cancellationReasonRequired] });
      const row = await billing().cancel(sub, input, 'admin');
      strapi.log.info(`[billing] admin ${ctx.state.branchifyUser.id} cancelled subscription ${sub.id}${input.immediately ? ' immediately' : ' at period end'}`);
      ok(ctx, presentSubscription(row, await plans().find(row.plan_id)), MESSAGES.subscriptionCancelled);
    },

    async resume(ctx: Context) {
      const { sub, user } = await subscription(ctx);
      await respondOutcome(strapi, ctx, await billing().resume(user, sub, 'admin'), MESSAGES.subscriptionResumed);
    },

    async invoices(ctx: Context) {
      const { sub } = await subscription(ctx);
      ok(ctx, (await billing().invoicesOf(sub)).map(presentInvoice));
    },

    async refund(ctx: Context) {
      const { sub } = await subscription(ctx, 'subscriptionId');
      const input = parse(refundSchema, ctx.request.body);
      const invoice = await billing().findInvoice(sub, input.invoice_id);
      const refunded = await billing().refund(sub, invoice, input.amount);
      strapi.log.info(`[billing] admin ${ctx.state.branchifyUser.id} refunded invoice ${invoice.id}`);
      ok(ctx, presentInvoice(refunded), MESSAGES.invoiceRefunded);
    },
  };
};
