import type { AuthenticateConfig } from '../middlewares/authenticate';
import type { RateLimitConfig } from '../middlewares/rate-limit';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteOptions {
  /** undefined: public; otherwise the authenticate middleware's options. */
  auth?: AuthenticateConfig;
  rateLimit?: RateLimitConfig;
}

/**
 * One /api route: mounted directly under /api (not /api/branchify), outside Strapi's
 * users-permissions role checks, and guarded by our own middlewares in a fixed order
 * (rate limit for anonymous calls first, then authentication, then account rate limits).
 */
export const route = (method: Method, path: string, handler: string, options: RouteOptions = {}) => {
  const middlewares: Array<string | { name: string; config: unknown }> = [];
  const limitAfterAuth = options.rateLimit?.account === 'user';
  if (options.rateLimit && !limitAfterAuth) middlewares.push({ name: 'plugin::branchify.rate-limit', config: options.rateLimit });
  if (options.auth) middlewares.push({ name: 'plugin::branchify.authenticate', config: options.auth });
  if (options.rateLimit && limitAfterAuth) middlewares.push({ name: 'plugin::branchify.rate-limit', config: options.rateLimit });
  return { method, path, handler, config: { auth: false as const, prefix: '', middlewares } };
};

export const USER = {} satisfies AuthenticateConfig;
export const ADMIN = { admin: true } satisfies AuthenticateConfig;
