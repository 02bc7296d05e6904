import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import getRawBody from 'raw-body';
import { badRequest, payloadTooLarge } from '../http/errors';

/** Where the bytes are kept on `ctx.request.body` (the key koa-body's includeUnparsed used). */
export const RAW_BODY = Symbol.for('unparsedBody');

/** A Stripe event is a few kilobytes; koa-body's JSON limit leaves ample room. */
const LIMIT_BYTES = 1024 * 1024;

/**
 * Route middleware of routes that verify a signature over their body (the Stripe webhook): the
 * bytes exactly as sent, whatever the Content-Type, up to 1 MB (413 past it, before reading on).
 */
export default () => async (ctx: Context, next: Next) => {
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit: LIMIT_BYTES, length: ctx.get('content-length') || null });
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw payloadTooLarge(MESSAGES.requestTooLarge);
    if (status && status >= 400 && status < 500) throw badRequest(MESSAGES.genericFailure);
    throw error;
  }
  ctx.request.body = { [RAW_BODY]: bytes };
  return next();
};
