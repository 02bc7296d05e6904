import { MESSAGES, stripeConfigSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { AppError, validationError } from '../http/errors';
import { ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import { maskKey, unmaskKeys } from '../utils/masked-secret';
import type { Strapi } from '../utils/strapi';
import { classifyStripeError } from './stripe-client';
import { signState, verifyState } from './connect-state';

/** Card provider admin: credentials (secret never echoed), Connect OAuth. */
export default ({ strapi }: { strapi: Strapi }) => {
  const settings = () => getService(strapi, 'stripe-settings');

  /** The credentials form: secrets masked (kind and last four characters), never in full. */
  const configView = async () => {
    const view = await settings().publicView();
    const credentials = await settings().credentials();
    return {
      client_id: view.client_id,
      secret: maskKey(credentials.secretKey),
      publishable_key: view.publishable_key,
      webhook_secret: maskKey(credentials.webhookSecret),
      redirect_url: view.redirect_url,
      has_secret: view.has_secret,
      has_webhook_secret: view.has_webhook_secret,
      configured: view.configured,
    };
  };

  return {
    async show(ctx: Context) {
      ok(ctx, await settings().publicView());
    },

    async config(ctx: Context) {
      ok(ctx, await configView());
    },

    /** Accepts back what `config` served: masked secrets keep the saved ones; redirect_url and the flags are read-only and ignored. */
    async updateConfig(ctx: Context) {
      const input = parse(stripeConfigSchema, ctx.request.body);
      const served = await configView();
      const secrets = unmaskKeys({
        secret: { value: input.secret, served: served.secret },
        webhook_secret: { value: input.webhook_secret, served: served.webhook_secret },
      });
      await settings().save({ client_id: input.client_id, publishable_key: input.publishable_key, ...secrets });
      strapi.log.info(`[billing] admin ${ctx.state.branchifyUser.id} updated the Stripe credentials`);
      ok(ctx, await settings().publicView(), MESSAGES.stripeCredentialsUpdated);
    },

    async authUrl(ctx: Context) {
      const credentials = await settings().credentials();
      const connect = await settings().connect();
      if (!connect || !credentials.clientId) throw validationError({ client_id: [MESSAGES.paymentsNotConfigured] }, MESSAGES.paymentsNotConfigured);
      const url = connect.authorizeUrl({ clientId: credentials.clientId, redirectUri: settings().redirectUrl(), state: signState(ctx.state.branchifyUser.id) });
      ok(ctx, { url });
    },

    /** Where Stripe sends the admin's browser back; answers with a redirect to the integrations page. */
    async callback(ctx: Context) {
      const back = (status: string) => ctx.redirect(`/admin/integrations?tab=0&stripe=${status}`);
      const state = typeof ctx.query.state === 'string' ? verifyState(ctx.query.state) : null;
      const code = typeof ctx.query.code === 'string' ? ctx.query.code : null;
      if (!state) {
        strapi.log.warn('[billing] Stripe OAuth callback with an invalid or expired state');
        return back('invalid-state');
      }
      if (!code) return back(typeof ctx.query.error === 'string' ? 'denied' : 'error');
      const connect = await settings().connect();
      if (!connect) return back('not-configured');
      try {
        const { accountId } = await connect.exchange(code);
        await settings().setAccount(accountId);
        strapi.log.info(`[billing] admin ${state.adminId} connected Stripe account ${accountId}`);
        return back('connected');
      } catch (error) {
        strapi.log.warn(`[billing] Stripe OAuth code exchange failed: ${classifyStripeError(error).message}`);
        return back('error');
      }
    },

    async disconnect(ctx: Context) {
      const credentials = await settings().credentials();
      if (!credentials.accountId) throw new AppError(409, MESSAGES.stripeNotConnected);
      const connect = await settings().connect();
      if (connect && credentials.clientId) {
        try {
          await connect.deauthorize(credentials.clientId, credentials.accountId);
        } catch (error) {
          // Forget it locally anyway: the admin asked to disconnect; Stripe may already have.
          strapi.log.warn(`[billing] Stripe deauthorize failed: ${classifyStripeError(error).message}`);
        }
      }
      await settings().setAccount(null);
      ok(ctx, await settings().publicView(), MESSAGES.stripeDisconnected);
    },
  };
};
