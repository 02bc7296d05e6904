import type { Context } from 'koa';
import type { EncodedBody } from './content-coding';

/** Headers that describe one response's bytes or connection, never replayed. */
const PER_RESPONSE = new Set([
  'content-length',
  'content-type',
  'content-encoding',
  'etag',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'set-cookie',
]);

type Headers = Record<string, string | string[]>;

const served = new WeakMap<Context, EncodedBody>();
const recorded = new WeakMap<EncodedBody, Headers>();

/** The response to `ctx` is `body` (a cached body, sent by sendEncoded). */
export const noteServed = (ctx: Context, body: EncodedBody): void => {
  served.set(ctx, body);
};

/**
 * Keeps the headers the whole middleware chain gave a 200 carrying a cached body (security
 * headers, CSP, cache and robots headers), so the body can later be sent with exactly those
 * headers without running the chain again.
 */
export const recordHeaders = (ctx: Context): void => {
  const body = served.get(ctx);
  if (!body || ctx.status !== 200) return;
  const headers: Headers = {};
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (value === undefined || PER_RESPONSE.has(name)) continue;
    headers[name] = typeof value === 'number' ? String(value) : value;
  }
  recorded.set(body, headers);
};

/** What the chain sent with `body`, once it has sent it. */
export const recordedHeaders = (body: EncodedBody): Headers | undefined => recorded.get(body);
