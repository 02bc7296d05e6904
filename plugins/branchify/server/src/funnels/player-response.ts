import type { Context } from 'koa';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';

/** The player payload's response: ETag (If-None-Match → 304) and headers a CDN can hold it by. */
export const sendPlayerPayload = async (strapi: Strapi, ctx: Context, reference: string): Promise<void> => {
  const entry = await getService(strapi, 'player-payload').get(reference);
  ctx.set('ETag', entry.etag);
  ctx.set('Cache-Control', 'public, max-age=0, s-maxage=5, stale-while-revalidate=30');
  ctx.set('Vary', 'Accept-Encoding');
  if (ctx.get('if-none-match') === entry.etag) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = entry.json;
};
