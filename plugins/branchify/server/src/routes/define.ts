import type { AuthenticateConfig } from '../middlewares/authenticate';
import type { MultipartConfig } from '../middlewares/multipart';
import type { RateLimitConfig } from '../middlewares/rate-limit';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The route middlewares that read a body themselves; the body parser leaves it unread for them. */
export const MULTIPART = 'plugin::branchify.multipart';
export const RAW_BODY = 'plugin::branchify.raw-body';
const SAME_ORIGIN = 'plugin::branchify.same-origin';

export interface RouteOptions {
  /** undefined: public; otherwise the authenticate middleware's options. */
  auth?: AuthenticateConfig;
  rateLimit?: RateLimitConfig;
  /** Also takes multipart (files), parsed once the caller is authenticated and within its rate limit. */
  multipart?: MultipartConfig;
  /** Reads its body as raw bytes, whatever the type (a signature is checked over them). */
  rawBody?: true;
  /** Refuses requests another site's page sends (the auth endpoints: login CSRF). */
  sameOrigin?: true;
}

/**
 * One /api route: mounted directly under /api (not /api/branchify), outside Strapi's
 * users-permissions role checks, and guarded by our own middlewares in a fixed order
 * (other sites refused, rate limit for anonymous calls, authentication, account rate limits,
 * then the body of a multipart route).
 */
export const route = (method: Method, path: string, handler: string, options: RouteOptions = {}) => {
  const middlewares: Array<string | { name: string; config: unknown }> = [];
  const limitAfterAuth = options.rateLimit?.account === 'user';
  if (options.sameOrigin) middlewares.push(SAME_ORIGIN);
  if (options.rawBody) middlewares.push(RAW_BODY);
  if (options.rateLimit && !limitAfterAuth) middlewares.push({ name: 'plugin::branchify.rate-limit', config: options.rateLimit });
  if (options.auth) middlewares.push({ name: 'plugin::branchify.authenticate', config: options.auth });
  if (options.rateLimit && limitAfterAuth) middlewares.push({ name: 'plugin::branchify.rate-limit', config: options.rateLimit });
  if (options.multipart) middlewares.push({ name: MULTIPART, config: options.multipart });
  return { method, path, handler, config: { auth: false as const, prefix: '', middlewares } };
};

export const USER = {} satisfies AuthenticateConfig;
export const ADMIN = { admin: true } satisfies AuthenticateConfig;
