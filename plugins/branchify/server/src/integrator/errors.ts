import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { AppError } from '../http/errors';
import type { Strapi } from '../utils/strapi';

/** Strapi's error names by status, so the integrator API's failures read like the rest of Strapi's REST API. */
const NAMES: Record<number, string> = {
  400: 'ValidationError',
  401: 'UnauthorizedError',
  402: 'PaymentRequiredError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  409: 'ConflictError',
  422: 'ValidationError',
  429: 'RateLimitError',
  503: 'ServiceUnavailableError',
};

/**
 * Route middleware of the integrator API: the billing rules throw the app's AppError (with the
 * app's statuses and messages); here it leaves in Strapi's REST error shape
 * `{ data: null, error: { status, name, message, details } }`. Anything else is Strapi's own
 * error handler's (which never shows a stack trace).
 */
export default (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.status >= 500) {
        strapi.log.warn(`[integrator] ${ctx.method} ${ctx.path} (token ${ctx.state.auth?.credentials?.id ?? '?'}): ${error.message}`);
      }
      for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      ctx.status = error.status;
      ctx.body = {
        data: null,
        error: {
          status: error.status,
          name: NAMES[error.status] ?? 'ApplicationError',
          message: error.message || MESSAGES.genericFailure,
          details: error.errors ? { errors: error.errors } : {},
        },
      };
    }
  };
