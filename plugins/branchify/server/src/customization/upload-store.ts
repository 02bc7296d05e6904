/** The upload store: images checked, sanitised and stored through Strapi's upload plugin (branding, and creators' images through uploads/). */
import crypto from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_LIMITS, MESSAGES, messageTemplates } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import type { Context } from 'koa';
import sharp from 'sharp';
import { serviceUnavailable, validationError } from '../http/errors';
import { createSemaphore, SemaphoreFull } from '../utils/semaphore';
import type { Strapi } from '../utils/strapi';

/** The file object Strapi's body parser (koa-body / formidable) hands over. */
export interface IncomingFile {
  filepath: string;
  originalFilename?: string | null;
  mimetype?: string | null;
  size: number;
}

/** The files a multipart request sent under one field name (none, one, or several). */
export const filesIn = (ctx: Context, field: string): IncomingFile[] => {
  const files = (ctx.request as unknown as { files?: Record<string, IncomingFile | IncomingFile[] | undefined> }).files ?? {};
  const value = files[field];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
};

/** The image types accepted: png, jpg, jpeg, webp, svg. */
const EXTENSIONS: Record<string, 'png' | 'jpeg' | 'webp' | 'svg'> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', webp: 'webp', svg: 'svg' };
const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', svg: 'image/svg+xml' } as const;

/** What the bytes are, regardless of the name the browser sent. */
const sniff = (head: Buffer): 'png' | 'jpeg' | 'webp' | 'svg' | null => {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text)) return 'svg';
  return null;
};

let purifier: ReturnType<typeof createDOMPurify> | null = null;

/**
 * Keeps only SVG drawing markup (DOMPurify's svg profile): scripts, event handlers, foreign
 * objects and javascript: links are removed, so the file cannot run anything where it is shown.
 * Returns null when nothing drawable is left.
 */
export const sanitizeSvg = (source: string): string | null => {
  purifier ??= createDOMPurify(new JSDOM('').window);
  const clean = purifier.sanitize(source, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['foreignObject', 'script', 'iframe', 'object', 'embed'],
  });
  if (!/^<svg[\s>]/i.test(clean) || /<script|\son[a-z]+\s*=|javascript:/i.test(clean)) return null;
  const withNamespace = /\sxmlns=/.test(clean.slice(0, clean.indexOf('>'))) ? clean : clean.replace(/^<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${withNamespace}`;
};

export interface ImageRules {
  /** The largest file accepted, in KB (1 KB = 1024 bytes). */
  maxKb: number;
  /** The field error for a larger file. */
  tooLarge: string;
}

/** Logo and favicon: IMAGE_UPLOAD_MAX_KB, named in the refusal. */
export const brandingImageRules = (): ImageRules => ({ maxKb: env().IMAGE_UPLOAD_MAX_KB, tooLarge: messageTemplates.imageTooLarge(env().IMAGE_UPLOAD_MAX_KB) });

export interface StoredImage {
  /** The public URL (`/uploads/…` on local disk, the bucket's URL on S3). */
  url: string;
  /** The upload plugin's file id (null when stored without the plugin). */
  fileId: number | null;
  /** Bytes accepted (after SVG sanitising). */
  size: number;
}

interface Dimensions {
  width: number;
  height: number;
}

/**
 * The dimensions a raster image's header declares, read without decoding a pixel (sharp's own
 * pixel limit is lifted for this read only, so a header past it is judged by ours); every frame of
 * an animation counts toward its pixels. Null when no image header can be read.
 */
const declaredDimensions = async (filepath: string): Promise<(Dimensions & { pixels: number }) | null> => {
  try {
    const meta = await sharp(filepath, { limitInputPixels: false }).metadata();
    const height = meta.pageHeight ?? meta.height;
    if (!meta.width || !height) return null;
    return { width: meta.width, height, pixels: meta.width * height * Math.max(1, meta.pages ?? 1) };
  } catch {
    return null;
  }
};

const tooManyPixels = (d: Dimensions & { pixels: number }) =>
  d.width > CONTENT_LIMITS.imageMaxEdgePx || d.height > CONTENT_LIMITS.imageMaxEdgePx || d.pixels > CONTENT_LIMITS.imageMaxPixels;

/**
 * Whether the whole image decodes, read row by row into a thumbnail (memory stays small whatever
 * its size) and under sharp's pixel limit set to ours.
 */
const decodes = async (filepath: string): Promise<boolean> => {
  try {
    await sharp(filepath, { limitInputPixels: CONTENT_LIMITS.imageMaxPixels, sequentialRead: true }).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
};

/**
 * Decoding and storing images, per process: two at a time, twenty more waiting their turn, and
 * beyond that a 503 with Retry-After (the uploads that wait hold only their temporary file).
 */
const IMAGE_WORK = createSemaphore(2, 20);
const IMAGE_BUSY_RETRY_SECONDS = 5;

/** What the upload plugin records for a file (the fields this module reads back). */
interface UploadEntity {
  url?: string;
  [key: string]: unknown;
}

/** What is called of Strapi's upload plugin, whose services Strapi types as `any`. */
type UploadService = {
  formatFileInfo(info: { filename: string; type: string | null | undefined; size: number }, meta: { name: string }): Promise<UploadEntity>;
  remove(file: unknown): Promise<unknown>;
};
type UploadProvider = { upload(entity: UploadEntity): Promise<unknown> };

/**
 * Stores the file through Strapi's upload plugin (its provider: local disk, or S3) and records it,
 * as the plugin's own upload does but without deriving anything from it: no thumbnail, responsive
 * formats or size optimisation, so nothing decodes the image again.
 */
const storeThroughPlugin = async (strapi: Strapi, file: IncomingFile, name: string, dimensions: Dimensions | null): Promise<StoredImage> => {
  const upload = strapi.plugin('upload');
  const entity = await upload.service<UploadService>('upload').formatFileInfo({ filename: name, type: file.mimetype, size: file.size }, { name });
  Object.assign(entity, {
    width: dimensions?.width ?? null,
    height: dimensions?.height ?? null,
    filepath: file.filepath,
    getStream: () => createReadStream(file.filepath),
    provider: strapi.config.get<{ provider: string }>('plugin::upload').provider,
  });
  await upload.service<UploadProvider>('provider').upload(entity);
  if (!entity.url) throw new Error('the upload provider returned no URL');
  const row = (await strapi.db.query('plugin::upload.file').create({ data: entity })) as { id: number; url: string };
  return { url: row.url, fileId: row.id, size: file.size };
};

/**
 * Validates an uploaded image (extension and content must both be an allowed type; size within
 * the rules' limit; a raster image's declared dimensions within the content limits, read from its
 * header before anything decodes it, and then the whole image must decode), sanitises SVGs in
 * place, and stores it through Strapi's upload plugin (local disk by default, S3 when that
 * provider is configured).
 */
export const storeImage = async (strapi: Strapi, field: string, file: IncomingFile, rules: ImageRules = brandingImageRules()): Promise<StoredImage> => {
  const ext = path
    .extname(file.originalFilename ?? '')
    .slice(1)
    .toLowerCase();
  const declared = EXTENSIONS[ext];
  if (!declared) throw validationError({ [field]: [MESSAGES.invalidFileType] });
  if (file.size > rules.maxKb * 1024) throw validationError({ [field]: [rules.tooLarge] });

  const handle = await fs.open(file.filepath, 'r');
  const head = Buffer.alloc(1024);
  const { bytesRead } = await handle.read(head, 0, head.length, 0).finally(() => handle.close());
  const actual = sniff(head.subarray(0, bytesRead));
  if (actual !== declared) throw validationError({ [field]: [MESSAGES.invalidFileType] });

  // SVGs are never rasterised on the server (browsers draw them): no pixel limit applies.
  let dimensions: Dimensions | null = null;
  if (actual === 'svg') {
    const clean = sanitizeSvg(await fs.readFile(file.filepath, 'utf8'));
    if (!clean) throw validationError({ [field]: [MESSAGES.unsafeSvg] });
    await fs.writeFile(file.filepath, clean, 'utf8');
    file.size = Buffer.byteLength(clean);
  } else {
    const size = await declaredDimensions(file.filepath);
    if (!size) throw validationError({ [field]: [MESSAGES.invalidFileType] });
    if (tooManyPixels(size)) throw validationError({ [field]: [MESSAGES.imageTooManyPixels] });
    dimensions = { width: size.width, height: size.height };
  }
  file.mimetype = MIME[actual];
  // A name of our choosing: the client's name never reaches the file system or the URL.
  const name = `${field}-${crypto.randomBytes(8).toString('hex')}.${ext === 'jpeg' ? 'jpg' : ext}`;
  file.originalFilename = name;

  try {
    return await IMAGE_WORK.run(async () => {
      // Right magic bytes and header, broken body: refused like any other file that is not an image.
      if (actual !== 'svg' && !(await decodes(file.filepath))) throw validationError({ [field]: [MESSAGES.invalidFileType] });
      if (strapi.plugin('upload')) return storeThroughPlugin(strapi, file, name, dimensions);
      // Without the upload plugin: a random name under public/uploads, served by strapi::public.
      const dir = path.join(strapi.dirs.static.public, 'uploads');
      await fs.mkdir(dir, { recursive: true });
      await fs.copyFile(file.filepath, path.join(dir, name));
      return { url: `/uploads/${name}`, fileId: null, size: file.size };
    });
  } catch (error) {
    if (!(error instanceof SemaphoreFull)) throw error;
    strapi.log.warn(`[images] ${field}: refused with 503, image work is at capacity (${JSON.stringify(IMAGE_WORK.load)})`);
    throw serviceUnavailable(MESSAGES.serviceUnavailable, IMAGE_BUSY_RETRY_SECONDS);
  }
};

/**
 * Deletes stored images (with the sizes the upload plugin derived from them). A file that is
 * already gone counts as deleted; other failures are logged and the rest still go.
 */
export const deleteImages = async (strapi: Strapi, images: ReadonlyArray<{ url: string; fileId: number | null }>): Promise<void> => {
  const upload = strapi.plugin('upload');
  for (const image of images) {
    try {
      if (image.fileId !== null && upload) {
        const file: unknown = await strapi.db.query('plugin::upload.file').findOne({ where: { id: image.fileId } });
        if (file) await upload.service<UploadService>('upload').remove(file);
      } else if (image.url.startsWith('/uploads/')) {
        await fs.rm(path.join(strapi.dirs.static.public, 'uploads', path.basename(image.url)), { force: true });
      }
    } catch (error) {
      strapi.log.error(`[images] could not delete ${image.url}: ${(error as Error).message}`);
    }
  }
};
