import { MESSAGES } from '@branchify/shared';
import { AppError, badGateway, paymentRequired, serviceUnavailable, unprocessable } from '../http/errors';
import { classifyStripeError } from './stripe-client';

/**
 * Stripe failures as the user should see them: a decline is 402 with the spec's default
 * message; Stripe down or slow is 502 (nothing was written on our side); bad credentials 503.
 */
export const toAppError = (error: unknown, log: (message: string) => void): unknown => {
  if (error instanceof AppError) return error;
  const { kind, message, code } = classifyStripeError(error);
  switch (kind) {
    case 'card':
      log(`[billing] card declined (${code ?? 'no code'})`);
      return paymentRequired(MESSAGES.paymentDeclined);
    case 'unavailable':
      log(`[billing] Stripe unavailable: ${message}`);
      return badGateway(MESSAGES.paymentProviderUnavailable);
    case 'auth':
      log(`[billing] Stripe rejected our credentials: ${message}`);
      return serviceUnavailable(MESSAGES.paymentsNotConfigured);
    case 'invalid':
      log(`[billing] Stripe refused a request: ${message}`);
      return unprocessable(message);
    default:
      return error;
  }
};

export const isCardError = (error: unknown): boolean => classifyStripeError(error).kind === 'card';
