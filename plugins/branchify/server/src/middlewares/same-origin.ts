import { MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { forbidden } from '../http/errors';

/** An origin in its canonical form (scheme://host[:port], lower-case, default port dropped), or null. */
const originOf = (value: string): string | null => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
};

/**
 * Route middleware of the auth endpoints (login, register, tokens, passwords, verification):
 * a browser request sent by another site is refused (403), so no site can sign a visitor in to an
 * account of its choosing or act with the refresh cookie. Our own origins are the address the
 * request was sent to, PUBLIC_URL and CORS_ORIGINS. When an Origin header is present it decides;
 * without one, `Sec-Fetch-Site: cross-site` is refused. Callers that send neither (scripts, the
 * integrator, curl) are not browsers acting for someone else, and pass.
 */
export default () => {
  const trusted = new Set([env().PUBLIC_URL, ...(env().CORS_ORIGINS ?? [])].map(originOf).filter((o): o is string => o !== null));
  return async (ctx: Context, next: Next) => {
    const origin = ctx.get('origin');
    if (origin) {
      const canonical = originOf(origin);
      const own = originOf(`${ctx.protocol}://${ctx.host}`);
      if (!canonical || (canonical !== own && !trusted.has(canonical))) throw forbidden(MESSAGES.crossSiteRequest);
    } else if (ctx.get('sec-fetch-site').toLowerCase() === 'cross-site') {
      throw forbidden(MESSAGES.crossSiteRequest);
    }
    return next();
  };
};
