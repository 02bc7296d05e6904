import type { Context } from 'koa';
import { RAW_BODY } from '../middlewares/raw-body';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';

export default ({ strapi }: { strapi: Strapi }) => ({
  /** POST /api/stripe/webhook — public; the Stripe-Signature header over the raw body is the auth. */
  async receive(ctx: Context) {
    // The bytes as Stripe sent them (the route reads its body raw).
    const body = ctx.request.body as Record<symbol, Buffer | undefined> | undefined;
    const result = await getService(strapi, 'stripe-webhooks').receive(body?.[RAW_BODY], ctx.get('stripe-signature') || undefined);
    ctx.status = 200;
    ctx.body = { success: true, data: { received: true, ...result } };
  },
});
