import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { leaveUncompressed } from '../http/content-coding';
import { isUnder, requestPath } from '../http/request-path';
import { answerNoFile, fileUnder } from '../http/static-file';
import type { Strapi } from '../utils/strapi';

/** Images shown as themselves; everything else under /uploads is handed out as a download. */
const RASTER_IMAGES = new Set(['.png', '.jpg', '.jpeg', '.webp']);

/**
 * The policy of every answer from /uploads: nothing loads, nothing runs (a sandbox without
 * allow-scripts gives the document an opaque origin), inline styles and data: images only, so an
 * SVG opened on its own still draws.
 */
const UPLOADS_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

/** `child` is `dir` or lies inside it. */
const isWithin = (dir: string, child: string) => child === dir || child.startsWith(dir + path.sep);

/** The file a static answer reads (the stream's path), or where the request path points under public/. */
const targets = (ctx: Context, publicDir: string): string[] => {
  const found: string[] = [];
  const body = ctx.body;
  if (body instanceof fs.ReadStream && typeof body.path === 'string') found.push(path.resolve(body.path));
  try {
    // As koa-send resolves it: decoded, relative to public/ (a range answer's stream has no path).
    found.push(path.join(publicDir, path.normalize(`/${decodeURIComponent(ctx.path)}`)));
  } catch {
    /* a malformed escape reaches no file */
  }
  return found;
};

/**
 * Files under public/uploads never run on the app's origin, whichever route and path spelling
 * served them: never sniffed, always under a script-free sandbox, and anything but a png, jpeg or
 * webp image as an opaque download (application/octet-stream, attachment), so neither a page nor
 * a script left there (by an older version, or by hand) is rendered or accepted as a script.
 */
export default (_config: unknown, { strapi }: { strapi: Strapi }) => {
  const publicDir = path.resolve(strapi.dirs.static.public);
  const uploadsDir = path.join(publicDir, 'uploads');
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    // A name no file can have (through a file, too long) is a 404 here, before Strapi's file server stats it.
    const { key, decoded } = requestPath(ctx);
    if (isUnder(key, '/uploads') && fileUnder(uploadsDir, decoded.slice('/uploads/'.length)) === 'impossible')
      return answerNoFile(ctx, strapi.log, 'impossible');
    await next();
    const file = targets(ctx, publicDir).find((candidate) => isWithin(uploadsDir, candidate));
    if (!file || ctx.status >= 400) return;
    // Sent as stored: a byte range (206) must not be compressed, nor is an image or a video worth it.
    leaveUncompressed(ctx);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', UPLOADS_CSP);
    const ext = path.extname(file).toLowerCase();
    if (ext === '.svg') {
      ctx.type = 'image/svg+xml';
    } else if (!RASTER_IMAGES.has(ext)) {
      // attachment() sets the type from the name: the opaque type goes after it.
      ctx.attachment(path.basename(file));
      ctx.type = 'application/octet-stream';
    }
  };
};
