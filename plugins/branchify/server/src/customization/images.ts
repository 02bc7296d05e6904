import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import type { Context } from 'koa';
import { validationError } from '../http/errors';
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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- jsdom's window is DOMPurify's window at run time
  purifier ??= createDOMPurify(new JSDOM('').window as any);
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

/** Logo and favicon: IMAGE_UPLOAD_MAX_KB, with the spec's sentence. */
export const brandingImageRules = (): ImageRules => ({ maxKb: env().IMAGE_UPLOAD_MAX_KB, tooLarge: MESSAGES.fileTooLarge });

export interface StoredImage {
  /** The public URL (`/uploads/…` on local disk, the bucket's URL on S3). */
  url: string;
  /** The upload plugin's file id (null when stored without the plugin). */
  fileId: number | null;
  /** Bytes accepted (after SVG sanitising). */
  size: number;
}

/**
 * Validates an uploaded image (extension and content must both be an allowed type; size within
 * the rules' limit), sanitises SVGs in place, and stores it through Strapi's upload plugin
 * (local disk by default, S3 when that provider is configured).
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

  if (actual === 'svg') {
    const clean = sanitizeSvg(await fs.readFile(file.filepath, 'utf8'));
    if (!clean) throw validationError({ [field]: [MESSAGES.unsafeSvg] });
    await fs.writeFile(file.filepath, clean, 'utf8');
    file.size = Buffer.byteLength(clean);
  }
  file.mimetype = MIME[actual];
  // A name of our choosing: the client's name never reaches the file system or the URL.
  const name = `${field}-${crypto.randomBytes(8).toString('hex')}.${ext === 'jpeg' ? 'jpg' : ext}`;
  file.originalFilename = name;

  const upload = strapi.plugin('upload');
  if (upload) {
    let stored: { id: number; url: string } | undefined;
    try {
      [stored] = (await upload.service('upload').upload({ data: { fileInfo: { name } }, files: file })) as Array<{ id: number; url: string }>;
    } catch (error) {
      // An image the plugin recognises but cannot decode (right magic bytes, broken body).
      if ((error as Error).message === 'File is not a valid image') throw validationError({ [field]: [MESSAGES.invalidFileType] });
      throw error;
    }
    if (!stored?.url) throw new Error('the upload plugin returned no URL');
    return { url: stored.url, fileId: stored.id ?? null, size: file.size };
  }
  // Without the upload plugin: a random name under public/uploads, served by strapi::public.
  const dir = path.join(strapi.dirs.static.public, 'uploads');
  await fs.mkdir(dir, { recursive: true });
  await fs.copyFile(file.filepath, path.join(dir, name));
  return { url: `/uploads/${name}`, fileId: null, size: file.size };
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
        const file = await strapi.db.query('plugin::upload.file').findOne({ where: { id: image.fileId } });
        if (file) await upload.service('upload').remove(file);
      } else if (image.url.startsWith('/uploads/')) {
        await fs.rm(path.join(strapi.dirs.static.public, 'uploads', path.basename(image.url)), { force: true });
      }
    } catch (error) {
      strapi.log.error(`[images] could not delete ${image.url}: ${(error as Error).message}`);
    }
  }
};
