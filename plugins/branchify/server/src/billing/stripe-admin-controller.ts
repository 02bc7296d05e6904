import { MESSAGES, stripeConfigSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';

/** Card provider admin: credentials (secret never echoed), Connect OAuth. */
export default ({ strapi }: { strapi: Strapi }) => {
  const settings = () => getService(strapi, 'stripe-settings');
  const connection = () => getService(strapi, 'stripe-connection');

  return {
    async show(ctx: Context) {
      ok(ctx, await settings().publicView());
    },

    async config(ctx: Context) {
      ok(ctx, await connection().configView());
    },

    async updateConfig(ctx: Context) {
      const input = parse(stripeConfigSchema, ctx.request.body);
      ok(ctx, await connection().saveConfig(input, ctx.state.branchifyUser.id), MESSAGES.stripeCredentialsUpdated);
    },

    async authUrl(ctx: Context) {
      ok(ctx, { url: await connection().authorizeUrl(ctx.state.branchifyUser.id) });
    },

    /** Where Stripe sends the admin's browser back; answers with a redirect to the integrations page. */
    async callback(ctx: Context) {
      const state = typeof ctx.query.state === 'string' ? ctx.query.state : null;
      const code = typeof ctx.query.code === 'string' ? ctx.query.code : null;
      const status = await connection().completeConnect(state, code, typeof ctx.query.error === 'string');
      ctx.redirect(`/admin/integrations?tab=0&stripe=${status}`);
    },

    async disconnect(ctx: Context) {
      ok(ctx, await connection().disconnect(), MESSAGES.stripeDisconnected);
    },
  };
};
