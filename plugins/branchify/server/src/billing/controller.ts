import {
  MESSAGES,
  cancelSchema,
  changeSchema,
  payInvoiceSchema,
  paymentMethodSchema,
  subscribeSchema,
  type StripeIntegrationResource,
} from '@branchify/shared';
import type { Context } from 'koa';
import { notFound, paymentRequired } from '../http/errors';
import { routeId } from '../http/params';
import { created, ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { presentSubscription } from './present';
import type { PaymentOutcome } from './service';
import type { SubscriptionRow } from '../content-types/subscription';
import { signedInUser } from '../http/request-state';

/** Subscriptions, invoices and the card, as the signed-in user sees them. */
export default ({ strapi }: { strapi: Strapi }) => {
  const billing = () => getService(strapi, 'billing');

  /** Another user's subscription is a 404, never a 403. */
  const ownSubscription = async (ctx: Context): Promise<SubscriptionRow> => {
    const row = await query(strapi, UID.subscription).findOne({ where: { id: routeId(ctx), user_id: signedInUser(ctx).id } });
    if (!row) throw notFound();
    return row;
  };

  return {
    async current(ctx: Context) {
      const row = await billing().currentOf(signedInUser(ctx));
      ok(ctx, row ? presentSubscription(row, await getService(strapi, 'plans').find(row.plan_id)) : null);
    },

    async create(ctx: Context) {
      const outcome = await billing().subscribe(signedInUser(ctx), parse(subscribeSchema, ctx.request.body), 'user');
      await respondOutcome(strapi, ctx, outcome, MESSAGES.subscriptionCreated, 201);
    },

    async change(ctx: Context) {
      const sub = await ownSubscription(ctx);
      const outcome = await billing().change(signedInUser(ctx), sub, parse(changeSchema, ctx.request.body), 'user');
      await respondOutcome(strapi, ctx, outcome, MESSAGES.subscriptionPlanChanged);
    },

    async cancel(ctx: Context) {
      const sub = await ownSubscription(ctx);
      const input = parse(cancelSchema, ctx.request.body ?? {});
      const row = await billing().cancel(sub, input, 'user');
      ok(ctx, presentSubscription(row, await getService(strapi, 'plans').find(row.plan_id)), MESSAGES.subscriptionCancelled);
    },

    async resume(ctx: Context) {
      const sub = await ownSubscription(ctx);
      await respondOutcome(strapi, ctx, await billing().resume(signedInUser(ctx), sub, 'user'), MESSAGES.subscriptionResumed);
    },

    async invoices(ctx: Context) {
      const sub = await ownSubscription(ctx);
      ok(ctx, await billing().presentInvoices(await billing().invoicesOf(sub)));
    },

    /** Every invoice the user was sent, of every subscription, newest first. */
    async allInvoices(ctx: Context) {
      ok(ctx, await billing().presentInvoices(await billing().invoicesOfUser(signedInUser(ctx).id)));
    },

    async payInvoice(ctx: Context) {
      const sub = await ownSubscription(ctx);
      const { invoice_id } = parse(payInvoiceSchema, ctx.request.body);
      await respondOutcome(strapi, ctx, await getService(strapi, 'billing-payments').payInvoice(signedInUser(ctx), sub, invoice_id), MESSAGES.invoicePaid);
    },

    async stripeIntegration(ctx: Context) {
      const view = await getService(strapi, 'stripe-settings').publicView();
      const integration: StripeIntegrationResource = {
        integrated: view.ready,
        publishable_key: view.publishable_key || null,
        account_id: view.account_id,
      };
      ok(ctx, integration);
    },

    async paymentMethod(ctx: Context) {
      ok(ctx, await billing().paymentMethod(signedInUser(ctx)));
    },

    async setPaymentMethod(ctx: Context) {
      const { payment_method_id } = parse(paymentMethodSchema, ctx.request.body);
      ok(ctx, await billing().setPaymentMethod(signedInUser(ctx), payment_method_id), MESSAGES.cardAdded);
    },
  };
};

/**
 * One answer per payment outcome: active → the success message; 3-D Secure → 202 with what
 * Stripe.js needs (client_secret) to confirm; declined → 402 with the spec's default message.
 */
export const respondOutcome = async (strapi: Strapi, ctx: Context, outcome: PaymentOutcome, message: string, status = 200) => {
  const plan = await getService(strapi, 'plans').find(outcome.subscription.plan_id);
  const subscription = presentSubscription(outcome.subscription, plan);
  switch (outcome.kind) {
    case 'active':
      return status === 201 ? created(ctx, subscription, message) : ok(ctx, subscription, message);
    case 'requires_action':
      return ok(
        ctx,
        { subscription, requires_action: true, client_secret: outcome.client_secret, payment_intent_id: outcome.payment_intent },
        MESSAGES.paymentActionRequired,
        202,
      );
    case 'awaiting_payment':
      // Admin-created paid subscriptions wait for the user to pay on login.
      return status === 201 ? created(ctx, subscription, message) : ok(ctx, subscription, message);
    case 'declined':
      throw paymentRequired(MESSAGES.paymentDeclined);
  }
};
