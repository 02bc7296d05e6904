/**
 * What travels compressed. The static server (plugins/branchify/server/src/middlewares/spa.ts),
 * the precompression step of the build (scripts/precompress.js), the player's cached responses and
 * Strapi's compression middleware (cms/config/middlewares.ts) share these.
 */

/** Bodies smaller than this travel as they are (a compressed one would gain next to nothing). */
export const COMPRESS_MIN_BYTES = 1024;

/** The content codings we send, best first, and the suffix of each precompressed build file. */
export const CONTENT_CODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;

export type ContentCoding = (typeof CONTENT_CODINGS)[number]['coding'];

/**
 * Build files worth precompressing: text formats. Fonts in woff/woff2, images and media are
 * compressed already.
 */
export const PRECOMPRESSED_EXTENSIONS: readonly string[] = [
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.svg',
  '.txt',
  '.xml',
  '.webmanifest',
  '.ico',
  '.ttf',
  '.otf',
];

/**
 * Response types compressed on the fly: text, JSON, JavaScript, XML and SVG. Not opaque bytes
 * (application/octet-stream: every download from /uploads, videos included), media, images or
 * fonts, and not an event stream (each event must reach the client when it is written).
 */
export const isCompressibleType = (type: string): boolean =>
  !/^text\/event-stream/i.test(type) && /^(?:text\/|image\/svg\+xml|application\/(?:[\w.-]+\+)?(?:json|xml|javascript|ecmascript)\b)/i.test(type);
