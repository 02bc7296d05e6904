import type { Context } from 'koa';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';

const RAW = Symbol.for('unparsedBody');

export default ({ strapi }: { strapi: Strapi }) => ({
  /** POST /api/stripe/webhook — public; the Stripe-Signature header over the raw body is the auth. */
  async receive(ctx: Context) {
    const body = ctx.request.body as Record<symbol, string | undefined> | undefined;
    const result = await getService(strapi, 'stripe-webhooks').receive(body?.[RAW], ctx.get('stripe-signature') || undefined);
    ctx.status = 200;
    ctx.body = { success: true, data: { received: true, ...result } };
  },
});
