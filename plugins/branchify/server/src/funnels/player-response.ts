import type { Context } from 'koa';
import { encodedBody, sendEncoded, type EncodedBody } from '../http/content-coding';
import { noteServed } from '../http/replayed-headers';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { PlayerEntry } from './player-payload';

/** Each cached payload's compressed bytes, made once per cache entry (a new version is a new entry). */
const encoded = new WeakMap<PlayerEntry, EncodedBody>();

/**
 * The player payload's response: in the best coding the client accepts, an ETag per coding
 * (If-None-Match → 304) and headers a CDN can hold it by.
 */
export const sendPlayerPayload = async (strapi: Strapi, ctx: Context, reference: string): Promise<void> => {
  const entry = await getService(strapi, 'player-payload').get(reference);
  let body = encoded.get(entry);
  if (!body) {
    body = encodedBody(entry.json, entry.etag);
    encoded.set(entry, body);
  }
  ctx.set('Cache-Control', 'public, max-age=0, s-maxage=5, stale-while-revalidate=30');
  sendEncoded(ctx, body, 'application/json');
  noteServed(ctx, body);
};

/** The payload's bytes once a response has made them (the viewer fast path sends them again). */
export const cachedPayloadBody = (entry: PlayerEntry): EncodedBody | null => encoded.get(entry) ?? null;
