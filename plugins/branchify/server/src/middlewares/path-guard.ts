import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { failureBody } from '../http/respond';
import { isContractPath, isUnder, pathForLog, requestPath } from '../http/request-path';
import type { Strapi } from '../utils/strapi';

interface ClientError {
  status?: unknown;
  expose?: unknown;
  name?: unknown;
  message?: unknown;
}

/** A refusal in the shape of the area it is in: the /api envelope, or Strapi's own elsewhere. */
const refuse = (ctx: Context, status: number, name: string, message: string, apiMessage: string = message) => {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = isContractPath(requestPath(ctx).key) ? failureBody(apiMessage) : { data: null, error: { status, name, message, details: {} } };
};

/**
 * Before anything reads the path: a path whose percent-escapes do not decode, or that decodes to a
 * NUL, is answered 400 and logged as one line (but under /player, whose page answers an unknown
 * reference with its own 404 page), and one with an empty segment (`//`, which no route and no file
 * has) 404, in the area's error shape (the file servers, fast paths and databases would otherwise
 * throw on the first two, and Koa's file server calls the third malicious). A client error a Koa
 * middleware raises further in (its file server's 'Malicious Path', …) is answered with its own
 * status and logged as one line, never as a stack.
 */
export default (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    const path = requestPath(ctx);
    // The player's pages answer any broken reference with their own 404 page, frameable in an embed.
    const undecodable = path.malformed ? MESSAGES.malformedPath : path.nul ? MESSAGES.nulInPath : null;
    if (undecodable && !isUnder(path.key, '/player')) {
      strapi.log.warn(`[http] ${ctx.method} ${pathForLog(ctx.path)} answered 400: ${undecodable}`);
      return refuse(ctx, 400, 'BadRequestError', undecodable);
    }
    if (path.emptySegment) return refuse(ctx, 404, 'NotFoundError', 'Not Found', MESSAGES.routeNotFound);
    try {
      await next();
    } catch (raw) {
      const error = raw as ClientError;
      const status = typeof error?.status === 'number' ? error.status : 0;
      if (status < 400 || status >= 500 || error.expose !== true) throw raw;
      const message = typeof error.message === 'string' && error.message ? error.message : MESSAGES.genericFailure;
      strapi.log.warn(`[http] ${ctx.method} ${pathForLog(ctx.path)} answered ${status}: ${message}`);
      refuse(ctx, status, typeof error.name === 'string' ? error.name : 'BadRequestError', message);
    }
  };
