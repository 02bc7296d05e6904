import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { AppError } from '../http/errors';
import { isContractPath, requestPath } from '../http/request-path';
import { failureBody } from '../http/respond';
import { isDatabaseUnavailable } from '../operations/database';
import type { Strapi } from '../utils/strapi';

interface HttpishError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  name?: string;
  message?: string;
  type?: string;
}

/** Strapi's own error classes (from @strapi/utils) carry a name; map them to our statuses. */
const STRAPI_ERRORS: Record<string, number> = {
  ValidationError: 422,
  YupValidationError: 422,
  NotFoundError: 404,
  ForbiddenError: 403,
  PolicyError: 403,
  UnauthorizedError: 401,
  PayloadTooLargeError: 413,
  RateLimitError: 429,
  NotImplementedError: 501,
};

const send = (ctx: Context, status: number, message: string, errors?: Record<string, string[]>) => {
  ctx.status = status;
  ctx.body = failureBody(message, errors);
};

/**
 * The one error middleware for /api: every failure leaves as
 * `{ success: false, message, errors? }`, unknown routes as a JSON 404, and 5xx never carry a
 * stack trace (it goes to the log with the request's context); while the database cannot be
 * reached they are a 503 with Retry-After.
 */
export default (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    // In every spelling Strapi's router routes (request-path.ts).
    if (!isContractPath(requestPath(ctx).key)) return next();
    try {
      await next();
      if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null)) {
        send(ctx, 404, MESSAGES.routeNotFound);
      } else if (ctx.status === 405 && !ctx.body) {
        send(ctx, 405, MESSAGES.routeNotFound);
      }
    } catch (raw) {
      const err = raw as HttpishError & Error;
      if (err instanceof AppError) {
        if (err.status >= 500 && err.detail) strapi.log.warn(`[api] ${ctx.method} ${ctx.path} answered ${err.status}: ${err.detail}`);
        for (const [name, value] of Object.entries(err.headers ?? {})) ctx.set(name, value);
        return send(ctx, err.status, err.message, err.errors);
      }
      const mapped = err.name ? STRAPI_ERRORS[err.name] : undefined;
      if (mapped) {
        if (mapped === 401) return send(ctx, 401, MESSAGES.unauthenticated);
        if (mapped === 413) return send(ctx, 413, MESSAGES.requestTooLarge);
        return send(ctx, mapped, mapped === 403 ? MESSAGES.unauthorized : err.message || MESSAGES.genericFailure);
      }
      const status = err.status ?? err.statusCode;
      if (status && status >= 400 && status < 500) {
        // koa-body parse failures (a __proto__ key is refused rather than parsed) and koa's ctx.throw(4xx).
        const message = /forbidden prototype property/i.test(err.message ?? '')
          ? MESSAGES.forbiddenBodyKey
          : err.type === 'entity.parse.failed' || /json/i.test(err.message ?? '')
            ? MESSAGES.malformedBody
            : err.expose
              ? err.message
              : MESSAGES.genericFailure;
        return send(ctx, status, message ?? MESSAGES.genericFailure);
      }
      if (isDatabaseUnavailable(err)) {
        // The database is down or restarting: a clean, retryable answer rather than a 500.
        strapi.log.warn(`[api] ${ctx.method} ${ctx.path}: database unavailable (${err.message})`);
        ctx.set('Retry-After', '1');
        return send(ctx, 503, MESSAGES.serviceUnavailable);
      }
      strapi.log.error(`[api] ${ctx.method} ${ctx.path} failed (user ${ctx.state?.branchifyUser?.id ?? 'anonymous'}): ${err.stack ?? err.message}`);
      send(ctx, 500, MESSAGES.serverError);
    }
  };
