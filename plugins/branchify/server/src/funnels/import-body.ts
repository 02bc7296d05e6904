import { promises as fs } from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import type { Context } from 'koa';
import { filesIn } from '../customization/upload-store';
import { badRequest, validationError } from '../http/errors';
import { laterJsonText } from '../middlewares/later-json';
import { offload } from '../offload/pool';
import { refuse } from './transfer';

/** The multipart field an import's file comes in. */
export const IMPORT_FIELD = 'file';

/** A body with nothing in it (no file was sent). */
const EMPTY_JSON = /^\s*(\{\s*\})?\s*$/;

/** A file the worker read and found to be an export. */
export type ImportRead = Extract<Awaited<ReturnType<typeof offload.readExport>>, { document: unknown }>;

/**
 * Reads and checks an export file on a worker thread: an uploaded file, or a JSON text. A file that
 * is not JSON is a 422 on `file`; a text that is not, a 400 as any JSON body. `work` gets the file
 * with the images it shows decoded into a temporary folder, removed once `work` is over.
 */
export const readImport = async <T>(source: { file: string } | { text: string }, work: (read: ImportRead) => Promise<T>): Promise<T> => {
  const root = env().UPLOAD_TMP_DIR;
  await fs.mkdir(root, { recursive: true });
  const imagesDir = await fs.mkdtemp(path.join(root, 'funnel-import-'));
  try {
    const read = await offload.readExport(source, imagesDir, IMPORT_FIELD);
    if ('fault' in read) {
      if ('file' in source) throw validationError({ [IMPORT_FIELD]: [MESSAGES.importFileNotJson] });
      throw badRequest(read.fault === 'forbidden-key' ? MESSAGES.forbiddenBodyKey : MESSAGES.malformedBody);
    }
    if ('problems' in read) return refuse(read.problems);
    return await work(read);
  } finally {
    await fs.rm(imagesDir, { recursive: true, force: true });
  }
};

/** The import route's file: one .json file in `file` (the dashboard's upload), or the file's object as the JSON body (scripts). */
export const withImportFile = async <T>(ctx: Context, work: (read: ImportRead) => Promise<T>): Promise<T> => {
  const files = filesIn(ctx, IMPORT_FIELD);
  if (files.length > 1) throw validationError({ [IMPORT_FIELD]: [MESSAGES.importFileRequired] });
  if (files.length === 1) return readImport({ file: files[0]!.filepath }, work);
  const text = laterJsonText(ctx);
  if (ctx.is('multipart') || text === null || EMPTY_JSON.test(text)) throw validationError({ [IMPORT_FIELD]: [MESSAGES.importFileRequired] });
  return readImport({ text }, work);
};

/** `?dry_run=true` (or 1): answer what the import would make, and make nothing. */
export const isDryRun = (ctx: Context): boolean => {
  const raw = ctx.query.dry_run;
  return typeof raw === 'string' && ['true', '1'].includes(raw.toLowerCase());
};
