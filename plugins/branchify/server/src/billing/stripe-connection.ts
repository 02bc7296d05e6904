import { MESSAGES, type stripeConfigSchema } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import type { Context } from 'koa';
import type { z } from 'zod';
import { badGateway, conflict, validationError } from '../http/errors';
import { maskKey, unmaskKeys } from '../utils/masked-secret';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { connectStates, type ConnectStarter } from './connect-state';
import { classifyStripeError } from './stripe-client';
import { STRIPE_WEBHOOK_EVENTS } from './stripe-events';

type StripeConfig = z.output<typeof stripeConfigSchema>;

/** How the Connect OAuth round trip ended, for the integrations page. */
type ConnectResult = 'connected' | 'invalid-state' | 'denied' | 'error' | 'not-configured';

const settings = (strapi: Strapi) => getService(strapi, 'stripe-settings');

/** Why the admin who started a round trip may not finish it (no longer an admin, or signed out), or null. */
const starterRefusal = async (strapi: Strapi, starter: ConnectStarter): Promise<string | null> => {
  const admin = await query(strapi, UID.user).findOne({
    where: { id: starter.adminId },
    select: ['id', 'is_admin', 'status', 'blocked', 'deletion_started_at'],
  });
  if (!admin || !admin.is_admin || admin.status !== 'active' || admin.blocked || admin.deletion_started_at) return 'the admin who started it is no longer one';
  if (!(await getService(strapi, 'tokens').sessionIsLive(starter.adminId, starter.sessionFamily))) return 'the session that started it has ended';
  return null;
};

/** The credentials form: secrets masked (kind and last four characters), never in full. */
const configView = async (strapi: Strapi) => {
  const view = await settings(strapi).publicView();
  const credentials = await settings(strapi).credentials();
  return {
    client_id: view.client_id,
    secret: maskKey(credentials.secretKey),
    publishable_key: view.publishable_key,
    webhook_secret: maskKey(credentials.webhookSecret),
    redirect_url: view.redirect_url,
    // Where Stripe sends its events, and which ones to select there (read-only, like redirect_url).
    webhook_url: `${env().PUBLIC_URL}/api/stripe/webhook`,
    webhook_events: [...STRIPE_WEBHOOK_EVENTS],
    has_secret: view.has_secret,
    has_webhook_secret: view.has_webhook_secret,
    configured: view.configured,
    ready: view.ready,
    problem: view.problem,
  };
};

/** Accepts back what `configView` served: masked secrets keep the saved ones; redirect_url and the flags are read-only and ignored. */
const saveConfig = async (strapi: Strapi, input: StripeConfig, actorId: number) => {
  const served = await configView(strapi);
  const secrets = unmaskKeys({
    secret: { value: input.secret, served: served.secret },
    webhook_secret: { value: input.webhook_secret, served: served.webhook_secret },
  });
  // The keys the save leaves in use must be keys Stripe accepts: checked before anything is written.
  const current = await settings(strapi).credentials();
  const publishable =
    input.publishable_key === undefined || input.publishable_key === null
      ? current.publishableKey
      : input.publishable_key || env().STRIPE_PUBLISHABLE_KEY || null;
  const { problem, fingerprint } = await settings(strapi).checkBeforeSave({ secret: secrets.secret ?? current.secretKey, publishable });
  if (problem === 'unreachable') throw badGateway(MESSAGES.stripeUnreachableOnSave);
  if (problem === 'mismatch') throw validationError({ publishable_key: [MESSAGES.stripeKeysMismatch] }, MESSAGES.stripeKeysMismatch);
  if (problem) throw validationError({ secret: [MESSAGES.stripeSecretRefused] }, MESSAGES.stripeSecretRefused);
  await settings(strapi).save({ client_id: input.client_id, publishable_key: input.publishable_key, ...secrets, verified_fingerprint: fingerprint });
  strapi.log.info(`[billing] admin ${actorId} updated the Stripe credentials`);
  return settings(strapi).publicView();
};

/**
 * Where to send the admin to connect an account; refused until the client id is set. The state
 * is bound to this admin's session and to this browser (a cookie set on `ctx`).
 */
const authorizeUrl = async (strapi: Strapi, ctx: Context, starter: ConnectStarter): Promise<string> => {
  const credentials = await settings(strapi).credentials();
  const connect = await settings(strapi).connect();
  if (!connect || !credentials.clientId) throw validationError({ client_id: [MESSAGES.paymentsNotConfigured] }, MESSAGES.paymentsNotConfigured);
  const state = await connectStates(strapi).issue(ctx, starter);
  return connect.authorizeUrl({ clientId: credentials.clientId, redirectUri: settings(strapi).redirectUrl(), state });
};

/**
 * Stripe's answer to the authorization. The state is used up first; it connects the account
 * only if it is known, unexpired, brought back by the browser it was handed to, and the admin
 * who started it is still an admin signed in with the same session.
 */
const completeConnect = async (strapi: Strapi, ctx: Context, state: string | null, code: string | null, denied: boolean): Promise<ConnectResult> => {
  const starter = await connectStates(strapi).consume(ctx, state);
  const refusal = typeof starter === 'string' ? `${starter} state` : await starterRefusal(strapi, starter);
  if (typeof starter === 'string' || refusal) {
    strapi.log.warn(`[billing] Stripe OAuth callback refused: ${refusal}`);
    return 'invalid-state';
  }
  if (!code) return denied ? 'denied' : 'error';
  const connect = await settings(strapi).connect();
  if (!connect) return 'not-configured';
  try {
    const { accountId } = await connect.exchange(code);
    await settings(strapi).setAccount(accountId);
    strapi.log.info(`[billing] admin ${starter.adminId} connected Stripe account ${accountId}`);
    return 'connected';
  } catch (error) {
    strapi.log.warn(`[billing] Stripe OAuth code exchange failed: ${classifyStripeError(error).message}`);
    return 'error';
  }
};

/** Forgets the account locally even when Stripe's deauthorization fails (it may already have). */
const disconnect = async (strapi: Strapi) => {
  const credentials = await settings(strapi).credentials();
  if (!credentials.accountId) throw conflict(MESSAGES.stripeNotConnected);
  const connect = await settings(strapi).connect();
  if (connect && credentials.clientId) {
    try {
      await connect.deauthorize(credentials.clientId, credentials.accountId);
    } catch (error) {
      strapi.log.warn(`[billing] Stripe deauthorize failed: ${classifyStripeError(error).message}`);
    }
  }
  await settings(strapi).setAccount(null);
  return settings(strapi).publicView();
};

/** The card provider as an admin sets it up: credentials (secret never echoed) and the Connect account. */
export default ({ strapi }: { strapi: Strapi }) => ({
  configView: () => configView(strapi),
  saveConfig: (input: StripeConfig, actorId: number) => saveConfig(strapi, input, actorId),
  authorizeUrl: (ctx: Context, starter: ConnectStarter) => authorizeUrl(strapi, ctx, starter),
  completeConnect: (ctx: Context, state: string | null, code: string | null, denied: boolean) => completeConnect(strapi, ctx, state, code, denied),
  disconnect: () => disconnect(strapi),
});
