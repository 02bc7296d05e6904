import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { bodyKind, JSON_BODY_BYTES } from '../http/body-rules';
import { badRequest, payloadTooLarge } from '../http/errors';
import type { Next } from '../http/next';

/** Where the JSON text a route reads later is kept. */
const LATER_TEXT = Symbol.for('branchify.laterJsonText');

/**
 * Route middleware of routes that read their JSON once the caller has passed their guards: the
 * body as text, up to the JSON limit (a declared length over it is refused before a byte is read),
 * left for the handler to parse off the event loop. A multipart body is the multipart middleware's.
 */
export default () => async (ctx: Context, next: Next) => {
  if (bodyKind(ctx.req.headers) !== 'json') return next();
  try {
    const text = await getRawBody(ctx.req, { limit: JSON_BODY_BYTES, length: ctx.get('content-length') || null, encoding: 'utf8' });
    (ctx.state as Record<symbol, string>)[LATER_TEXT] = text;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw payloadTooLarge(MESSAGES.requestTooLarge);
    if (status && status >= 400 && status < 500) throw badRequest(MESSAGES.malformedBody);
    throw error;
  }
  return next();
};

/** The JSON text this request sent, or null when it sent none (or sent files). */
export const laterJsonText = (ctx: Context): string | null => (ctx.state as Record<symbol, string | undefined>)[LATER_TEXT] ?? null;
