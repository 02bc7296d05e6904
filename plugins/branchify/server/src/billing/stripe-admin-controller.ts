import { MESSAGES, stripeConfigSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { unauthenticated } from '../http/errors';
import { ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { signedInSession, signedInUser } from '../http/request-state';

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
      ok(ctx, await connection().saveConfig(input, signedInUser(ctx).id), MESSAGES.stripeCredentialsUpdated);
    },

    async authUrl(ctx: Context) {
      const session = signedInSession(ctx);
      // Access tokens without a session predate sessions; they cannot start a round trip bound to one.
      if (!session) throw unauthenticated();
      ok(ctx, { url: await connection().authorizeUrl(ctx, { adminId: signedInUser(ctx).id, sessionFamily: session }) });
    },

    /**
     * Where Stripe sends the admin's browser back (a top-level GET, without the app's bearer token:
     * the state, the browser's cookie and the admin's session stand for it); answers with a redirect
     * to the integrations page.
     */
    async callback(ctx: Context) {
      const state = typeof ctx.query.state === 'string' ? ctx.query.state : null;
      const code = typeof ctx.query.code === 'string' ? ctx.query.code : null;
      const status = await connection().completeConnect(ctx, state, code, typeof ctx.query.error === 'string');
      ctx.redirect(`/admin/integrations?tab=0&stripe=${status}`);
    },

    async disconnect(ctx: Context) {
      ok(ctx, await connection().disconnect(), MESSAGES.stripeDisconnected);
    },
  };
};
