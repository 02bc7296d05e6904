import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';
import type { Strapi } from '../utils/strapi';
import { pathForLog } from './request-path';

/** The longest file name (one path segment) and path, in bytes, the file systems we run on take. */
const NAME_MAX = 255;
const PATH_MAX = 4096;

/** What a stat throws for a name no file can have: through a file, too long, a link loop, a NUL. */
const IMPOSSIBLE_CODES = new Set(['ENOTDIR', 'ENAMETOOLONG', 'ELOOP', 'EINVAL', 'ERR_INVALID_ARG_VALUE']);

/** Why a request names no file to serve: nothing (or a folder) is there, or no file can have that name. */
export type NoFile = 'absent' | 'impossible';

/** A regular file found for a request, and its stat. */
export interface StaticFile {
  file: string;
  stat: fs.Stats;
}

const errorCode = (error: unknown): unknown => (error && typeof error === 'object' && 'code' in error ? error.code : undefined);

/**
 * The regular file at `file` (an absolute path), or why there is none. A name no file can have (a
 * NUL, a segment over NAME_MAX bytes, a path over PATH_MAX, a path through a file) is 'impossible',
 * never an exception; only a failure of the install itself (EACCES, EIO) throws.
 */
export const statFile = (file: string): fs.Stats | NoFile => {
  if (file.includes('\0') || Buffer.byteLength(file) >= PATH_MAX) return 'impossible';
  if (file.split(path.sep).some((segment) => Buffer.byteLength(segment) > NAME_MAX)) return 'impossible';
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    if (IMPOSSIBLE_CODES.has(errorCode(error) as string)) return 'impossible';
    throw error;
  }
  if (stat) return stat.isFile() ? stat : 'absent';
  // Nothing there: a path through a file is still no name a file can have (Node 24's stat answers
  // nothing for it, where earlier versions threw ENOTDIR).
  return throughFile(file) ? 'impossible' : 'absent';
};

/** Whether a folder of `file`'s path is a file (the nearest one that exists is looked at). */
const throughFile = (file: string): boolean => {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (stat) return !stat.isDirectory();
  }
  return false;
};

/**
 * The regular file `relative` (a decoded request path below a static route) names under `root`,
 * or why there is none: a name leading out of `root` or holding a backslash (a separator to Windows
 * and to Koa's file server, never in a name we serve) is 'impossible', as are the names statFile
 * refuses. Every static route looks its files up through this.
 */
export const fileUnder = (root: string, relative: string): StaticFile | NoFile => {
  if (relative.includes('\\')) return 'impossible';
  const file = path.join(root, relative);
  if (file === root || file === root + path.sep) return 'absent';
  if (!file.startsWith(root + path.sep)) return 'impossible';
  const stat = statFile(file);
  return typeof stat === 'string' ? stat : { file, stat };
};

/**
 * The 404 of a static route. A name no file can have is logged as one line (method and the path
 * as sent, cut short), never a stack: enough to see a scan, not enough to fill the log.
 */
export const answerNoFile = (ctx: Context, log: Pick<Strapi['log'], 'warn'>, why: NoFile): void => {
  if (why === 'impossible') log.warn(`[http] ${ctx.method} ${pathForLog(ctx.path)} answered 404: no file can have this name`);
  ctx.status = 404;
  ctx.type = 'text/plain';
  ctx.body = 'Not found';
};
