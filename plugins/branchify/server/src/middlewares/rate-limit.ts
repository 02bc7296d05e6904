import type { Context } from 'koa';
import type { Next } from '../http/next';
import { tooManyRequests } from '../http/errors';
import type { RateBudget } from '../rate-limit/service';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';

export interface RateLimitConfig {
  /** Name of the limited action (login, forgot, reset, register, …). */
  name: string;
  /**
   * Where the account key comes from: the email in the body (login/forgot/reset) or the
   * authenticated user, or the Strapi API token that authenticated the request. Never a header or
   * anything else a client can vary freely.
   */
  account?: 'body.email' | 'user' | 'api-token';
  /** Whether the client address is counted too (an API token is its own budget wherever it calls from). */
  perAddress?: boolean;
  /**
   * Counts the account per client address, as sign-in does: one address's attempts use up only its
   * own budget on the account, never the owner's (who asks from their own address).
   */
  accountPerAddress?: boolean;
  /**
   * 'ingest': the player's view/interaction events, which a real viewer sends many of;
   * 'upload': creators' file uploads, funnel imports and exports (UPLOAD_RATE_LIMIT_MAX per account and per address);
   * 'edit': funnel saves (EDIT_RATE_LIMIT_MAX per account and per address);
   * 'integrator': integrator API requests (INTEGRATOR_RATE_LIMIT_MAX per API token).
   */
  budget?: RateBudget;
}

/** The counter of an action's attempts by one account (the same one this middleware counts). */
export const accountBucket = (name: string, account: string | number): string => `${name}:account:${account}`;

/**
 * Counts each attempt against the client IP (as Koa resolves it under the configured proxy
 * policy) and, where the action targets an account, against that account too; either over its
 * limit answers 429 with Retry-After.
 */
export default (config: RateLimitConfig, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    const limiter = getService(strapi, 'rateLimit');
    const keys: Array<{ key: string; kind: 'ip' | 'account' }> = config.perAddress === false ? [] : [{ key: `${config.name}:ip:${ctx.ip}`, kind: 'ip' }];
    const body = (ctx.request as { body?: Record<string, unknown> }).body;
    const account =
      config.account === 'user'
        ? ctx.state.branchifyUser?.id
        : config.account === 'api-token'
          ? ctx.state.auth?.credentials?.id
          : config.account === 'body.email' && typeof body?.email === 'string'
            ? body.email.trim().toLowerCase().slice(0, 255)
            : undefined;
    if (account !== undefined && account !== '') {
      keys.push({ key: config.accountPerAddress ? `${accountBucket(config.name, account)}:${ctx.ip}` : accountBucket(config.name, account), kind: 'account' });
    }

    for (const { key, kind } of keys) {
      const verdict = await limiter.hit(key, kind, config.budget);
      if (!verdict.allowed) {
        strapi.log.warn(`[rate-limit] ${config.name} limited (${kind}) for ${kind === 'ip' ? ctx.ip : 'an account'}`);
        throw tooManyRequests(verdict.retryAfterSeconds);
      }
    }
    return next();
  };
