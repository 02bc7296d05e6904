import fs from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '@branchify/shared';
import { CMS_DIR } from '@branchify/shared/node';
import type { Context, Next } from 'koa';
import { isUnder, requestPath } from '../http/request-path';
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

/** The web app's index.html (frontend/ builds into build/app/), or the placeholder before a build. */
const readIndex = (): string => {
  const built = path.join(BUILD_DIR, 'app', 'index.html');
  return fs.readFileSync(fs.existsSync(built) ? built : path.join(ASSETS_DIR, 'placeholder.html'), 'utf8');
};

/**
 * Serves the web apps on the API's origin: hashed assets under /build/ with
 * year-long immutable caching (stable names revalidated, see isStableUrl), /player/{reference} reserved for the player, and every other
 * browser navigation answered with the single-page app's index.html.
 *
 * Strapi's own admin API keeps the /admin/* paths for its JSON calls; a browser navigation to
 * /admin/* (Accept: text/html) is ours. See docs/decisions.md.
 */
export default (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    // Matched in every spelling the router would accept (request-path.ts); names are taken as sent.
    // The path decodes: path-guard answered 400 otherwise.
    const { key, decoded } = requestPath(ctx);

    // The demo funnel's bundled clips (npm run seed -- --demo).
    if (isUnder(key, DEMO_MEDIA_ROOT)) return serveDemoMedia(ctx, decoded.slice(DEMO_MEDIA_ROOT.length + 1));

    if (isUnder(key, '/build')) {
      const file = path.normalize(path.join(BUILD_DIR, decoded.slice('/build/'.length)));
      const stat = file.startsWith(BUILD_DIR + path.sep) ? fs.statSync(file, { throwIfNoEntry: false }) : undefined;
      if (!stat?.isFile()) {
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = 'Not found';
        return;
      }
      ctx.type = path.extname(file);
      if (isStableUrl(path.relative(BUILD_DIR, file).split(path.sep).join('/'))) {
        const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
        ctx.set('Cache-Control', 'no-cache');
        ctx.set('ETag', etag);
        if (ctx.get('If-None-Match') === etag) {
          ctx.status = 304;
          return;
        }
      } else {
        ctx.set('Cache-Control', IMMUTABLE);
      }
      ctx.body = fs.createReadStream(file);
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
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = readIndex();
  };
