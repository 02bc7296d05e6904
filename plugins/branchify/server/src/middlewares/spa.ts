import fs from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '@branchify/shared';
import { CMS_DIR, COMPRESS_MIN_BYTES, CONTENT_CODINGS, type ContentCoding } from '@branchify/shared/node';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { chooseCoding, codedEtag, leaveUncompressed, notModified } from '../http/content-coding';
import { isUnder, requestPath } from '../http/request-path';
import { answerNoFile, fileUnder, statFile } from '../http/static-file';
import { isDatabaseUnavailable } from '../operations/database';
import { renderPlayerPage } from '../player-page';
import { DEMO_MEDIA_ROOT, serveDemoMedia } from '../seed/media';
import type { Strapi } from '../utils/strapi';

const BUILD_DIR = path.join(CMS_DIR, 'public', 'build');
const ASSETS_DIR = path.join(__dirname, '..', '..', '..', 'server', 'assets');
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Build files whose URL stays the same when their content changes (the app's index.html, the font
 * stylesheets the player links by family, the font licenses): revalidated on every use, with an
 * ETag. Everything else under /build/ has a content hash in its name and is cached for good.
 */
const isStableUrl = (rel: string): boolean => path.basename(rel) === 'index.html' || /^fonts\/[^/]+\.css$/.test(rel) || /^fonts\/licenses\//.test(rel);

/** Paths Strapi answers itself (API, its admin panel and admin API, uploads, health and probes); `key` of request-path.ts. */
const isServerPath = (key: string) =>
  isUnder(key, '/api') ||
  isUnder(key, '/cms') ||
  key.startsWith('/uploads/') ||
  key === '/_health' ||
  key === '/_live' ||
  key === '/_ready' ||
  key === '/favicon.ico' ||
  key === '/robots.txt';

const wantsHtml = (ctx: Context) => ctx.accepts(['html', 'json']) === 'html';

/** A name of a precompressed copy (scripts/precompress.js writes them next to their original). */
const isCodedCopy = (file: string) => CONTENT_CODINGS.some(({ suffix }) => file.toLowerCase().endsWith(suffix));

/**
 * Sends a build file in the best coding the client accepts among the copies the build wrote
 * (scripts/precompress.js): the copy's bytes and length under the original's type, with
 * `Vary: Accept-Encoding`. A copy older than its file (a front end rebuilt on its own) is not used.
 * `no-cache` files (stable URLs) carry an ETag per coding and answer If-None-Match with 304.
 * With no copy, the file goes as it is and Strapi's compression middleware may compress it.
 */
const sendBuildFile = (ctx: Context, file: string, stat: fs.Stats, cacheControl: string): void => {
  const copies = new Map<ContentCoding, fs.Stats>();
  if (stat.size >= COMPRESS_MIN_BYTES) {
    for (const { coding, suffix } of CONTENT_CODINGS) {
      const copy = statFile(file + suffix);
      if (typeof copy !== 'string' && copy.mtimeMs >= stat.mtimeMs) copies.set(coding, copy);
    }
  }
  const coding = chooseCoding(ctx.get('Accept-Encoding'), [...copies.keys()]);
  const sent = coding === 'identity' ? stat : copies.get(coding)!;
  if (copies.size > 0) leaveUncompressed(ctx);
  ctx.vary('Accept-Encoding');
  ctx.set('Cache-Control', cacheControl);
  if (cacheControl !== IMMUTABLE) {
    const etag = codedEtag(`W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`, coding);
    ctx.set('ETag', etag);
    if (notModified(ctx, etag)) {
      ctx.status = 304;
      return;
    }
  }
  ctx.type = path.extname(file);
  ctx.body = fs.createReadStream(coding === 'identity' ? file : file + CONTENT_CODINGS.find((c) => c.coding === coding)!.suffix);
  ctx.length = sent.size;
  if (coding !== 'identity') ctx.set('Content-Encoding', coding);
};

/**
 * Serves the web apps on the API's origin: hashed assets under /build/ with
 * year-long immutable caching (stable names revalidated, see isStableUrl), /player/{reference} reserved for the player, and every other
 * browser navigation answered with the single-page app's index.html.
 *
 * Strapi's own admin API keeps the /admin/* paths for its JSON calls; a browser navigation to
 * /admin/* (Accept: text/html) is ours. See docs/decisions/009-admin-is-shared-with-strapi-s-admin-api.md.
 */
export default (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    // Matched in every spelling the router would accept (request-path.ts); names are taken as sent.
    // The path decodes: path-guard answered 400 otherwise.
    const { key, decoded } = requestPath(ctx);

    // The demo funnel's bundled clips (npm run seed -- --demo).
    if (isUnder(key, DEMO_MEDIA_ROOT)) {
      // Byte ranges of video: sent as they are.
      leaveUncompressed(ctx);
      return serveDemoMedia(ctx, decoded.slice(DEMO_MEDIA_ROOT.length + 1), strapi.log);
    }

    if (isUnder(key, '/build')) {
      const found = fileUnder(BUILD_DIR, decoded.slice('/build/'.length));
      if (typeof found === 'string') return answerNoFile(ctx, strapi.log, found);
      // The precompressed copies are sent in place of their original, never on their own; build
      // metadata (Vite's .vite/manifest.json) is not served.
      const { file, stat } = found;
      if (isCodedCopy(file) || file.includes(`${path.sep}.vite${path.sep}`)) return answerNoFile(ctx, strapi.log, 'absent');
      const stable = isStableUrl(path.relative(BUILD_DIR, file).split(path.sep).join('/'));
      sendBuildFile(ctx, file, stat, stable ? 'no-cache' : IMMUTABLE);
      return;
    }

    if (isUnder(key, '/player')) {
      // The public player page (player-page/): payload inlined, frameable from any site.
      const reference = decoded.slice('/player/'.length);
      try {
        await renderPlayerPage(strapi, ctx, reference);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        // The database is restarting: a retryable answer, as /api gives.
        ctx.status = 503;
        ctx.set('Retry-After', '1');
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'text/plain';
        ctx.body = MESSAGES.serviceUnavailable;
      }
      return;
    }

    if (isServerPath(key) || !wantsHtml(ctx)) return next();
    const index = fileUnder(BUILD_DIR, path.join('app', 'index.html'));
    if (typeof index !== 'string') return sendBuildFile(ctx, index.file, index.stat, 'no-cache');
    // Before a build: the placeholder page.
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = fs.readFileSync(path.join(ASSETS_DIR, 'placeholder.html'), 'utf8');
  };
