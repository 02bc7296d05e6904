import zlib from 'node:zlib';
import { COMPRESS_MIN_BYTES, CONTENT_CODINGS, type ContentCoding } from '@branchify/shared/node';
import type { Context } from 'koa';

/** A content coding we send, or none. */
export type Coding = ContentCoding | 'identity';

/** The weight (q) of one Accept-Encoding entry: 1 when absent, 0 when unreadable. */
const weight = (params: string[]): number => {
  for (const param of params) {
    const match = /^\s*q\s*=(.*)$/i.exec(param);
    if (match) return Math.min(1, Math.max(0, Number(match[1]) || 0));
  }
  return 1;
};

/**
 * The coding to send for an Accept-Encoding header, among `available`: the highest weight wins,
 * br before gzip at equal weight; a weight of 0 (`br;q=0`, `*;q=0`) refuses a coding. No header,
 * or no acceptable coding, gives identity; so does `identity` weighted above every coding.
 */
export const chooseCoding = (header: string | undefined, available: readonly ContentCoding[]): Coding => {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [name, ...params] = entry.split(';');
    const token = name!.trim().toLowerCase();
    if (token) weights.set(token === 'x-gzip' ? 'gzip' : token, weight(params));
  }
  const wildcard = weights.get('*');
  let best: Coding = 'identity';
  let bestWeight = 0;
  for (const { coding } of CONTENT_CODINGS) {
    const q = weights.get(coding) ?? wildcard ?? 0;
    if (available.includes(coding) && q > bestWeight) {
      best = coding;
      bestWeight = q;
    }
  }
  const identity = weights.get('identity');
  return identity !== undefined && identity > bestWeight ? 'identity' : best;
};

/** The entity tag of one coding of a representation: each coding has its own (`"tag"` → `"tag-br"`). */
export const codedEtag = (etag: string, coding: Coding): string => (coding === 'identity' ? etag : etag.replace(/"$/, `-${coding}"`));

/** If-None-Match names `etag` (weak comparison, as the header asks) or is `*`. */
export const notModified = (ctx: Context, etag: string): boolean => {
  const header = ctx.get('If-None-Match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
};

/** Strapi's compression middleware (koa-compress) leaves this response as it is. */
export const leaveUncompressed = (ctx: Context): void => {
  (ctx as Context & { compress?: boolean }).compress = false;
};

/**
 * A response body kept with its compressed codings, each made once, on first use: for bytes that
 * are cached (per cache version) and sent many times. Brotli at a moderate quality: it runs on a
 * request, once per version.
 */
export interface EncodedBody {
  readonly etag: string;
  readonly identity: Buffer;
  /** The body in `coding`, or null when it is too small to compress or would not shrink. */
  coded(coding: ContentCoding): Buffer | null;
}

const ENCODE: Record<ContentCoding, (data: Buffer) => Buffer> = {
  br: (data) =>
    zlib.brotliCompressSync(data, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
    }),
  gzip: (data) => zlib.gzipSync(data, { level: 6 }),
};

export const encodedBody = (body: string | Buffer, etag: string): EncodedBody => {
  const identity = typeof body === 'string' ? Buffer.from(body) : body;
  const made = new Map<ContentCoding, Buffer | null>();
  return {
    etag,
    identity,
    coded(coding) {
      if (identity.length < COMPRESS_MIN_BYTES) return null;
      if (!made.has(coding)) {
        const encoded = ENCODE[coding](identity);
        made.set(coding, encoded.length < identity.length ? encoded : null);
      }
      return made.get(coding)!;
    },
  };
};

/**
 * Sends `body` in the best coding the client accepts, with that coding's ETag (If-None-Match →
 * 304) and `Vary: Accept-Encoding`. Status and the other headers are the caller's.
 */
export const sendEncoded = (ctx: Context, body: EncodedBody, type: string): void => {
  leaveUncompressed(ctx);
  ctx.vary('Accept-Encoding');
  const available = body.identity.length < COMPRESS_MIN_BYTES ? [] : CONTENT_CODINGS.map((c) => c.coding);
  let coding = chooseCoding(ctx.get('Accept-Encoding'), available);
  let bytes = coding === 'identity' ? body.identity : body.coded(coding);
  if (!bytes) {
    coding = 'identity';
    bytes = body.identity;
  }
  const etag = codedEtag(body.etag, coding);
  ctx.set('ETag', etag);
  if (notModified(ctx, etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = type;
  ctx.body = bytes;
  if (coding !== 'identity') ctx.set('Content-Encoding', coding);
};
