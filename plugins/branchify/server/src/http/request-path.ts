import type { Context } from 'koa';

/**
 * The request path as every path guard and fast path compares it. Strapi's router matches a path
 * case-insensitively and with or without a trailing slash, and Koa's file servers decode
 * percent-escapes, so a literal comparison of `ctx.path` is bypassed by another spelling of the
 * same path. Guards compare `key` instead, which every spelling of a path shares.
 */
export interface RequestPath {
  /** Percent-decoded once, repeated slashes collapsed, no trailing slash; letters as sent (file names, references). */
  decoded: string;
  /** `decoded` with ASCII letters lower-cased: what guards compare. Same length as `decoded`. */
  key: string;
  /** A percent-escape does not decode (`decoded` and `key` then keep the escapes as sent). */
  malformed: boolean;
  /** The path as sent has an empty segment (`//`), which no route and no file has. */
  emptySegment: boolean;
  /** The path decodes to a NUL character (`%00`), which no route, reference or file name has. */
  nul: boolean;
}

const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** `raw`, a request path as sent, as guards compare it. */
export const normalisePath = (raw: string): RequestPath => {
  let decoded = raw;
  let malformed = false;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    malformed = true;
  }
  decoded = decoded.replace(/\/{2,}/g, '/');
  if (decoded.length > 1 && decoded.endsWith('/')) decoded = decoded.slice(0, -1);
  if (!decoded.startsWith('/')) decoded = `/${decoded}`;
  return { decoded, key: asciiLower(decoded), malformed, emptySegment: raw.includes('//'), nul: decoded.includes('\0') };
};

/** How long a request path may be in a log line: a 5,000-byte path is logged by its start and its length. */
const LOGGED_PATH_MAX = 200;

/** `raw`, a request path as sent (percent-escaped, so no control characters), cut short for a log line. */
export const pathForLog = (raw: string): string => (raw.length <= LOGGED_PATH_MAX ? raw : `${raw.slice(0, LOGGED_PATH_MAX)}… (${raw.length} characters)`);

/** Paths that follow the /api contract (the integrator API under /api/branchify keeps Strapi's shape); `key` as above. */
export const isContractPath = (key: string): boolean =>
  (key === '/api' || key.startsWith('/api/')) && key !== '/api/branchify' && !key.startsWith('/api/branchify/');

const seen = new WeakMap<Context, { raw: string; path: RequestPath }>();

/** The request's normalised path (worked out once per request and path). */
export const requestPath = (ctx: Context): RequestPath => {
  const raw = ctx.path;
  const cached = seen.get(ctx);
  if (cached && cached.raw === raw) return cached.path;
  const path = normalisePath(raw);
  seen.set(ctx, { raw, path });
  return path;
};

/** Whether `key` is `path` or lies under it (`path` in lower case, without a trailing slash). */
export const isUnder = (key: string, path: string): boolean => key === path || key.startsWith(`${path}/`);
