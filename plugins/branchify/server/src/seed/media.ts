import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '@branchify/shared/node';
import type { Context } from 'koa';
import { answerNoFile, fileUnder } from '../http/static-file';
import type { Strapi } from '../utils/strapi';

/** Where the bundled sample clips live (committed with the repository). */
const DEMO_MEDIA_DIR = path.join(ROOT_DIR, 'database', 'seed');
export const DEMO_MEDIA_ROOT = '/demo-media';
export const DEMO_MEDIA_PATH = `${DEMO_MEDIA_ROOT}/`;
const FILE_NAME = /^[a-z0-9][a-z0-9-]*\.webm$/;

/** A single `bytes=` range of a file of `size` bytes, or 'unsatisfiable'; null for none (or several: the whole file is sent). */
const parseRange = (header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null => {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (!match[1] && !match[2])) return null;
  let start: number;
  let end: number;
  if (!match[1]) {
    // A suffix: the last N bytes.
    const length = Number(match[2]);
    if (length === 0) return 'unsatisfiable';
    start = Math.max(0, size - length);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  }
  return start >= size || start > end ? 'unsatisfiable' : { start, end };
};

/**
 * Serves the sample clips of the demo funnel from the app's own origin, with byte ranges (the
 * browser seeks a video with them). Only plain `.webm` names in the seed folder; anything else 404s
 * (a name no file can have also logs a line). `name` is the decoded path after DEMO_MEDIA_PATH.
 */
export const serveDemoMedia = (ctx: Context, name: string, log: Pick<Strapi['log'], 'warn'>): void => {
  const found = fileUnder(DEMO_MEDIA_DIR, name);
  if (typeof found === 'string') return answerNoFile(ctx, log, found);
  if (!FILE_NAME.test(name)) return answerNoFile(ctx, log, 'absent');
  const { file, stat } = found;
  const size = stat.size;
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Cache-Control', 'public, max-age=3600');
  ctx.set('Last-Modified', stat.mtime.toUTCString());
  const range = parseRange(ctx.get('Range') || undefined, size);
  if (range === 'unsatisfiable') {
    ctx.status = 416;
    ctx.set('Content-Range', `bytes */${size}`);
    ctx.body = '';
    return;
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  ctx.status = range ? 206 : 200;
  if (range) ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
  ctx.type = 'video/webm';
  if (ctx.method === 'HEAD') {
    // Koa sends no body for HEAD; the length is the one a GET would send.
    ctx.body = '';
    ctx.set('Content-Length', String(end - start + 1));
    return;
  }
  ctx.body = fs.createReadStream(file, { start, end });
  ctx.length = end - start + 1;
};
