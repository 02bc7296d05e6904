import { APP_VERSION } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import Stripe from 'stripe';

/**
 * The only module that imports `stripe`. It builds SDK clients from the admin's (or the
 * environment's) credentials and the transport settings in config, so tests point the real SDK
 * at tests/fakes/stripe without the rest of the code knowing.
 */
export type StripeClient = Stripe;
export { Stripe };

export const createStripeClient = (secretKey: string): Stripe => {
  const e = env();
  return new Stripe(secretKey, {
    ...(e.STRIPE_API_HOST ? { host: e.STRIPE_API_HOST } : {}),
    ...(e.STRIPE_API_PORT ? { port: e.STRIPE_API_PORT } : {}),
    protocol: e.STRIPE_API_PROTOCOL,
    timeout: e.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: e.STRIPE_MAX_NETWORK_RETRIES,
    appInfo: { name: 'Branchify', version: APP_VERSION },
  });
};

/** Verifies a webhook on its raw body (throws on a bad signature or one older than 300 s). */
export const constructWebhookEvent = (rawBody: string | Buffer, signature: string, secret: string): Stripe.Event =>
  Stripe.webhooks.constructEvent(rawBody, signature, secret, 300);

export type StripeErrorKind = 'card' | 'unavailable' | 'auth' | 'invalid' | 'other';

/** Classifies an SDK error for the error table in billing/errors.ts. */
export const classifyStripeError = (error: unknown): { kind: StripeErrorKind; message: string; code?: string } => {
  if (!(error instanceof Stripe.errors.StripeError)) return { kind: 'other', message: (error as Error)?.message ?? String(error) };
  if (error instanceof Stripe.errors.StripeCardError) return { kind: 'card', message: error.message, code: error.decline_code ?? error.code };
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    (error.statusCode ?? 0) >= 500
  ) {
    return { kind: 'unavailable', message: error.message };
  }
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError) {
    return { kind: 'auth', message: error.message };
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) return { kind: 'invalid', message: error.message, code: error.code };
  return { kind: 'other', message: error.message };
};
