import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { finished, Transform, Writable } from 'node:stream';
import { MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import formidable from 'formidable';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { JSON_BODY_BYTES } from '../http/body-rules';
import { errorWithStatus, validationError } from '../http/errors';
import { strapiFailureBody } from '../http/respond';
import type { Strapi } from '../utils/strapi';

/** The rules for one file field of a multipart route. */
interface FileField {
  /** The largest file accepted, in bytes: a larger one is refused as it arrives. */
  maxBytes: number;
  /** How many files the field takes. */
  maxFiles: number;
  /** The field error for a larger file. */
  tooLarge: string;
  /** The field error for more files than maxFiles. */
  tooMany: string;
}

export interface MultipartConfig {
  /** The file fields the route reads (files in other fields are not stored); read per request, as limits may come from the environment. */
  fields: () => Record<string, FileField>;
  /** Total bytes of all files (the sum of each field's files unless set). */
  maxFilesBytes?: number;
  /** Total bytes of the text fields (the JSON body limit unless set). */
  maxFieldsBytes?: number;
  /** Answer refusals in Strapi's REST error shape (its /cms routes) rather than the /api envelope. */
  strapiErrors?: boolean;
}

const KB = 1024;
/** Text fields of a form may carry what a JSON body may. */
const FIELDS_BYTES = JSON_BODY_BYTES;
/** Part headers and boundaries on top of the fields and files. */
const FRAMING_BYTES = 64 * KB;
/** Formidable's code for a request the client cut off. */
const ABORTED = 1002;

/** A refusal decided while the body arrives; one naming a field is that field's error on /api. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Writes one file, refusing it as soon as it is larger than `maxBytes`. */
const cappedFile = (filepath: string, maxBytes: number, refusal: () => Refusal, opened: fs.WriteStream[]): Writable => {
  const out = fs.createWriteStream(filepath, { flags: 'wx' });
  opened.push(out);
  let size = 0;
  const file = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(refusal());
      if (out.write(chunk)) done();
      else out.once('drain', () => done());
    },
    final(done) {
      out.end();
      finished(out, (error) => done(error ?? null));
    },
    destroy(error, done) {
      out.destroy();
      done(error);
    },
  });
  out.on('error', (error) => file.destroy(error));
  return file;
};

/** The request body, counted: past `maxBytes` it fails instead of passing more on. */
const counted = (req: IncomingMessage, maxBytes: number): IncomingMessage => {
  let seen = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(new Refusal(413, MESSAGES.requestTooLarge));
      done(null, chunk);
    },
  });
  req.on('aborted', () => stream.emit('aborted'));
  req.on('error', (error) => stream.destroy(error));
  req.pipe(stream);
  // Formidable reads the headers from the stream it parses.
  return Object.assign(stream, { headers: req.headers }) as unknown as IncomingMessage;
};

const closed = (stream: fs.WriteStream) =>
  stream.closed ? Promise.resolve() : new Promise<void>((resolve) => stream.once('close', () => resolve()).destroy());

/**
 * Route middleware of the upload routes, after their authentication and rate limits: parses a
 * multipart body into a temp folder of its own under UPLOAD_TMP_DIR, within the route's limits
 * (file fields, file count and size, text size, total size; a declared length over the total is
 * refused before a byte is read), and removes that folder once the request is over, whatever
 * happened: success, refusal, a thrown error, or a client gone mid-body.
 */
export default (config: MultipartConfig, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    if (!ctx.is('multipart')) return next();
    const fields = config.fields();
    const maxFieldsBytes = config.maxFieldsBytes ?? FIELDS_BYTES;
    const maxFilesBytes = config.maxFilesBytes ?? Object.values(fields).reduce((sum, f) => sum + f.maxBytes * f.maxFiles, 0);
    const maxBytes = maxFilesBytes + maxFieldsBytes + FRAMING_BYTES;

    const refuse = (refusal: Refusal) => {
      if (config.strapiErrors) {
        ctx.status = refusal.status;
        ctx.body = strapiFailureBody(refusal.status, refusal.message);
        return;
      }
      throw refusal.field ? validationError({ [refusal.field]: [refusal.message] }) : errorWithStatus(refusal.status, refusal.message);
    };

    if (Number(ctx.get('content-length')) > maxBytes) return refuse(new Refusal(413, MESSAGES.requestTooLarge));

    const root = path.resolve(env().UPLOAD_TMP_DIR);
    await fsp.mkdir(root, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(root, 'req-'));
    const opened: fs.WriteStream[] = [];
    try {
      const counts: Record<string, number> = {};
      let current = '';
      // Kept as well as thrown: a refusal raised by the last bytes of a body may reach formidable after it ended.
      let refused: Refusal | undefined;
      const refusal = (status: number, message: string, field: string) => (refused ??= new Refusal(status, message, field));
      const form = formidable({
        uploadDir: dir,
        multiples: true,
        maxFields: 100,
        maxFieldsSize: maxFieldsBytes,
        // Above the per-file limits, so those decide a single file; this bounds them all together.
        maxFileSize: maxFilesBytes + FRAMING_BYTES,
        allowEmptyFiles: true,
        minFileSize: 0,
        // Files in fields the route does not read are skipped, never written.
        filter: (part) => part.name !== null && Object.hasOwn(fields, part.name),
        // Called once per stored file, right after its 'fileBegin' (which names the field).
        fileWriteStreamHandler: (file) => {
          const field = current;
          const rule = fields[field]!;
          if ((counts[field] ?? 0) > rule.maxFiles) {
            // One file too many: refused without touching the disk.
            const tooMany = refusal(413, rule.tooMany, field);
            return new Writable({ write: (_chunk, _encoding, done) => done(tooMany) });
          }
          const { filepath } = file as unknown as { filepath: string };
          return cappedFile(filepath, rule.maxBytes, () => refusal(413, rule.tooLarge, field), opened);
        },
      });
      form.on('fileBegin', (name) => {
        current = name;
        counts[name] = (counts[name] ?? 0) + 1;
      });

      let parsed: { fields: formidable.Fields; files: formidable.Files };
      try {
        parsed = await new Promise((resolve, reject) =>
          form.parse(counted(ctx.req, maxBytes), (error: Error | null, text, files) => (error ? reject(error) : resolve({ fields: text, files }))),
        );
      } catch (error) {
        const decided = refused ?? (error instanceof Refusal ? error : undefined);
        if (decided) return refuse(decided);
        const code = (error as { code?: unknown }).code;
        if (code === ABORTED || code === 'ECONNRESET') {
          strapi.log.info(`[uploads] ${ctx.method} ${ctx.path}: the client left mid-body`);
          return refuse(new Refusal(400, MESSAGES.genericFailure));
        }
        const status = (error as { httpCode?: number }).httpCode;
        if (status === 413) return refuse(new Refusal(413, MESSAGES.requestTooLarge));
        if (status && status >= 400 && status < 500) return refuse(new Refusal(400, MESSAGES.validationFailed));
        throw error;
      }
      if (refused) return refuse(refused);
      ctx.request.body = parsed.fields;
      (ctx.request as unknown as { files: formidable.Files }).files = parsed.files;
      await next();
    } finally {
      // Every write stream closed first, so nothing can be created in the folder once it is gone.
      await Promise.all(opened.map(closed));
      await fsp.rm(dir, { recursive: true, force: true, maxRetries: 3 });
    }
  };

/**
 * Removes request folders a process left behind when it died mid-upload. Only folders older than
 * any request can run are touched: other app processes may share the folder.
 */
export const sweepUploadTmp = async (strapi: Strapi, olderThanMs = 60 * 60 * 1000): Promise<void> => {
  const root = path.resolve(env().UPLOAD_TMP_DIR);
  const entries = await fsp.readdir(root, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    const stat = await fsp.stat(full).catch(() => null);
    if (!stat || Date.now() - stat.mtimeMs < olderThanMs) continue;
    await fsp.rm(full, { recursive: true, force: true });
    removed += 1;
  }
  if (removed) strapi.log.info(`[uploads] removed ${removed} upload temp folder(s) left by an earlier process`);
};
