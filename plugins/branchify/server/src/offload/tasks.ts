import crypto from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse as parseJson } from '@hapi/bourne';
import {
  funnelCreateSchema,
  funnelDocumentSchema,
  readFunnelExport,
  uploadedImagesOf,
  type FunnelDocument,
  type ImportProblem,
  type LibraryEntry,
  IMPORT_IMAGE_TYPES,
} from '@branchify/shared';
import type { z } from 'zod';
import { JSON_BODY_BYTES } from '../http/body-rules';

/**
 * The work a request hands to a worker thread (offload/pool.ts): parsing and checking documents
 * whose size the caller controls. Each task gets text or a file path and answers plain data; the
 * request's thread never parses the body itself.
 */

/** Why a body was refused before its fields were read. */
type BodyFault = 'not-json' | 'forbidden-key';

type FieldIssues = Record<string, string[]>;

/** An embedded image the funnel shows, decoded into a file of its own. */
export interface DecodedImage {
  /** The path the funnel's elements use for it. */
  path: string;
  type: (typeof IMPORT_IMAGE_TYPES)[number];
  /** Where the decoded bytes were written. */
  file: string;
  size: number;
  /** Hex SHA-256 of the bytes (images are deduplicated by it). */
  sha256: string;
}

export type ReadExportResult =
  | { ok: true; document: FunnelDocument; library: LibraryEntry[]; images: DecodedImage[] }
  | { ok: false; fault: BodyFault }
  | { ok: false; problems: ImportProblem[] };

export type FunnelSaveResult =
  | { ok: true; kind: 'document'; value: FunnelDocument }
  | { ok: true; kind: 'meta'; value: z.output<typeof funnelCreateSchema> }
  | { ok: false; fault: BodyFault }
  | { ok: false; errors: FieldIssues };

export type OffloadTask =
  /** An export file, from an uploaded file (`file`) or a JSON body (`text`); used images are decoded into `imagesDir`. */
  | { kind: 'read-export'; file?: string; text?: string; imagesDir: string }
  /** The editor's save (`videos` present) or the funnel's details. */
  | { kind: 'funnel-save'; text: string };

const FUNNEL_TOO_LARGE = `must be at most ${JSON_BODY_BYTES / 2 ** 20} MB of JSON, as a funnel the editor saves`;

type Parsed = { ok: true; value: unknown } | { ok: false; fault: BodyFault };

/** A JSON body as the body parser reads it: an object or a list (strict), no `__proto__` key; an empty body is `{}`. */
const parseBody = (text: string): Parsed => {
  const start = text.trimStart();
  if (start === '') return { ok: true, value: {} };
  if (start[0] !== '{' && start[0] !== '[') return { ok: false, fault: 'not-json' };
  try {
    return { ok: true, value: parseJson(text, { protoAction: 'error' }) as unknown };
  } catch (error) {
    return { ok: false, fault: /prototype/i.test((error as Error).message) ? 'forbidden-key' : 'not-json' };
  }
};

/** A file as Import reads it: plain JSON (a `__proto__` key is an own key no schema reads). */
const parseFile = async (file: string): Promise<Parsed> => {
  try {
    return { ok: true, value: JSON.parse(await fs.readFile(file, 'utf8')) as unknown };
  } catch {
    return { ok: false, fault: 'not-json' };
  }
};

const fieldIssues = (error: z.ZodError): FieldIssues => {
  const errors: FieldIssues = {};
  for (const issue of error.issues) (errors[issue.path.length ? issue.path.map(String).join('.') : '_'] ??= []).push(issue.message);
  return errors;
};

/** Only the images the funnel shows are decoded (the others in the file are never stored). */
const decodeUsed = async (document: FunnelDocument, images: ReadonlyArray<{ path: string; type: DecodedImage['type']; data: string }>, dir: string) => {
  const used = new Set(uploadedImagesOf(document));
  const decoded: DecodedImage[] = [];
  for (const [i, image] of images.entries()) {
    if (!used.has(image.path)) continue;
    const bytes = Buffer.from(image.data, 'base64');
    const file = path.join(dir, `${i}${path.extname(image.path).toLowerCase()}`);
    await fs.writeFile(file, bytes, { flag: 'wx' });
    decoded.push({ path: image.path, type: image.type, file, size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') });
  }
  return decoded;
};

const readExport = async (task: Extract<OffloadTask, { kind: 'read-export' }>): Promise<ReadExportResult> => {
  const parsed = task.file ? await parseFile(task.file) : parseBody(task.text ?? '');
  if (!parsed.ok) return parsed;
  const read = readFunnelExport(parsed.value);
  if (!read.ok) return { ok: false, problems: read.problems };
  const { document, library, images } = read.value;
  // A funnel the editor could not save is not made by an import either.
  if (JSON.stringify(document).length > JSON_BODY_BYTES) return { ok: false, problems: [{ path: 'funnel', message: FUNNEL_TOO_LARGE }] };
  return { ok: true, document, library, images: await decodeUsed(document, images, task.imagesDir) };
};

/** A body without `videos` is the details form's; with them, the whole document. */
const funnelSave = (text: string): FunnelSaveResult => {
  const parsed = parseBody(text);
  if (!parsed.ok) return parsed;
  const body = parsed.value ?? {};
  if (typeof body === 'object' && !Array.isArray(body) && 'videos' in body) {
    const doc = funnelDocumentSchema.safeParse(body);
    return doc.success ? { ok: true, kind: 'document', value: doc.data } : { ok: false, errors: fieldIssues(doc.error) };
  }
  const meta = funnelCreateSchema.safeParse(body);
  return meta.success ? { ok: true, kind: 'meta', value: meta.data } : { ok: false, errors: fieldIssues(meta.error) };
};

/** The worker's entry (piscina calls it with each task). */
export default async (task: OffloadTask): Promise<ReadExportResult | FunnelSaveResult> =>
  task.kind === 'read-export' ? readExport(task) : funnelSave(task.text);
