import { promises as fs } from 'node:fs';
import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { filesIn } from '../customization/upload-store';
import { validationError } from '../http/errors';

/** The multipart field an import's file comes in. */
export const IMPORT_FIELD = 'file';

/**
 * The export file an import reads: one .json file in `file` (the dashboard's upload), or the file's
 * object as the JSON body (scripts). A file that is not JSON is a 422 on `file`.
 */
export const readImportBody = async (ctx: Context): Promise<unknown> => {
  const files = filesIn(ctx, IMPORT_FIELD);
  if (files.length > 1) throw validationError({ [IMPORT_FIELD]: [MESSAGES.importFileRequired] });
  if (files.length === 0) {
    const body: unknown = ctx.request.body;
    if (ctx.is('multipart') || body === undefined || body === null || (typeof body === 'object' && !Object.keys(body).length)) {
      throw validationError({ [IMPORT_FIELD]: [MESSAGES.importFileRequired] });
    }
    return body;
  }
  const text = await fs.readFile(files[0]!.filepath, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw validationError({ [IMPORT_FIELD]: [MESSAGES.importFileNotJson] });
  }
};

/** `?dry_run=true` (or 1): answer what the import would make, and make nothing. */
export const isDryRun = (ctx: Context): boolean => {
  const raw = ctx.query.dry_run;
  return typeof raw === 'string' && ['true', '1'].includes(raw.toLowerCase());
};
