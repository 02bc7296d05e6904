import type { Context } from 'koa';
import type { Next } from '../http/next';
import { requestPath } from '../http/request-path';
import { sendPlayerPayload } from '../funnels/player-response';
import type { Strapi } from '../utils/strapi';

/** On the normalised path (request-path.ts): every spelling the router would route here. */
const PATH = /^\/api\/funnels\/([A-Za-z0-9_-]{1,64})\/player$/i;

/**
 * `GET /api/funnels/{reference}/player` is the hottest public read (every embed load) and needs
 * nothing of the router's pipeline (no auth, no body, no session, no policies), so it is answered
 * here, after the security, CORS and /api error middlewares, like the /player pages. The route in
 * funnels/routes.ts stays and answers the same way (docs/decisions/027-player-payload-fast-path.md).
 * Once answered here, later requests for the same cached bytes are answered ahead of the whole
 * chain (viewer-fast-path.ts).
 */
export default (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const match = PATH.exec(requestPath(ctx).decoded);
    if (!match) return next();
    await sendPlayerPayload(strapi, ctx, match[1]!);
  };
