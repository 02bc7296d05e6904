import type { Context } from 'koa';
import { cachedPayloadBody } from '../funnels/player-response';
import { sendEncoded, type EncodedBody } from '../http/content-coding';
import type { Next } from '../http/next';
import { recordHeaders, recordedHeaders } from '../http/replayed-headers';
import { cachedPage } from '../player-page';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';

/** The two viewer routes, in their one canonical spelling (any other goes through the chain). */
const ROUTES = [
  { path: /^\/api\/funnels\/([A-Za-z0-9_-]{1,64})\/player$/, type: 'application/json', body: cachedPayloadBody },
  { path: /^\/player\/([A-Za-z0-9_-]{1,64})$/, type: 'html', body: cachedPage },
] as const;

const viewerRoute = (ctx: Context) => {
  // A cross-origin request gets CORS headers that depend on its Origin: the chain answers it.
  if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.get('Origin')) return null;
  for (const route of ROUTES) {
    const match = route.path.exec(ctx.path);
    if (match) return { route, reference: match[1]! };
  }
  return null;
};

/**
 * `GET /player/{reference}` and `GET /api/funnels/{reference}/player`, the requests every viewer
 * makes, answered ahead of the middleware chain when their bytes are cached: the first answer for
 * a cache entry goes through the whole chain, which renders it, and its headers are recorded;
 * later ones send the same bytes with the same headers (ETag, 304 and the coding still per
 * request). Anything else (an unknown funnel, another spelling of the path, an error) goes
 * through the chain.
 */
export default (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    const hit = viewerRoute(ctx);
    if (!hit) return next();
    let body: EncodedBody | null = null;
    try {
      const entry = await getService(strapi, 'player-payload').find(hit.reference);
      body = entry && hit.route.body(entry);
    } catch {
      body = null; // the chain answers (a 503 while the database restarts)
    }
    const headers = body && recordedHeaders(body);
    if (!body || !headers) {
      await next();
      recordHeaders(ctx);
      return;
    }
    ctx.status = 200;
    ctx.set(headers);
    sendEncoded(ctx, body, hit.route.type);
  };
