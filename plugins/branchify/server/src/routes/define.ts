import type { AuthenticateConfig } from '../middlewares/authenticate';
import type { MultipartConfig } from '../middlewares/multipart';
import type { RateLimitConfig } from '../middlewares/rate-limit';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The route middlewares that read a body themselves; the body parser leaves it unread for them. */
export const MULTIPART = 'plugin::branchify.multipart';
export const RAW_BODY = 'plugin::branchify.raw-body';
export const LATER_JSON = 'plugin::branchify.later-json';
const SAME_ORIGIN = 'plugin::branchify.same-origin';

export interface RouteOptions {
  /** undefined: public; otherwise the authenticate middleware's options. */
  auth?: AuthenticateConfig;
  rateLimit?: RateLimitConfig;
  /** Also takes multipart (files), parsed once the caller is authenticated and within its rate limit. */
  multipart?: MultipartConfig;
  /** Reads its body as raw bytes, whatever the type (a signature is checked over them). */
  rawBody?: true;
  /**
   * Checks the caller before its JSON body is read (the route's `guard`, after authentication and
   * the rate limit); the handler then parses the text off the event loop.
   */
  jsonLater?: { guard?: string };
  /** Refuses requests another site's page sends (the auth endpoints: login CSRF). */
  sameOrigin?: true;
}

/**
 * One /api route: mounted directly under /api (not /api/branchify), outside Strapi's
 * users-permissions role checks, and guarded by our own middlewares in a fixed order
 * (other sites refused, rate limit for anonymous calls, authentication, account rate limits,
 * the route's own guard, then the body of a multipart or JSON-later route).
 */
export const route = (method: Method, path: string, handler: string, options: RouteOptions = {}) => {
  const middlewares: Array<string | { name: string; config: unknown }> = [];
  const limitAfterAuth = options.rateLimit?.account === 'user';
  if (options.sameOrigin) middlewares.push(SAME_ORIGIN);
  if (options.rawBody) middlewares.push(RAW_BODY);
  if (options.rateLimit && !limitAfterAuth) middlewares.push({ name: 'plugin::branchify.rate-limit', config: options.rateLimit });
  if (options.auth) middlewares.push({ name: 'plugin::branchify.authenticate', config: options.auth });
  if (options.rateLimit && limitAfterAuth) middlewares.push({ name: 'plugin::branchify.rate-limit', config: options.rateLimit });
  if (options.jsonLater?.guard) middlewares.push(options.jsonLater.guard);
  if (options.multipart) middlewares.push({ name: MULTIPART, config: options.multipart });
  if (options.jsonLater) middlewares.push(LATER_JSON);
  return { method, path, handler, config: { auth: false as const, prefix: '', middlewares } };
};

export const USER = {} satisfies AuthenticateConfig;
export const ADMIN = { admin: true } satisfies AuthenticateConfig;
