import { z } from 'zod';
import { MESSAGES, messageTemplates } from '../messages';
import { captionTrackSchema } from '../schemas/videos';
import { CAPTION_LIMITS, captionProblemText, parseCaptionFile } from './captions';
import { funnelDocumentSchema, type FunnelDocument, type FunnelElement } from './funnel-schema';
import { CONTENT_LIMITS } from './options';
import { VIDEO_PROVIDERS } from './video-sources';
import { ID_MAX, URL_MAX } from './lengths';

/**
 * A funnel as a file: its document, the library entries its videos play (source and title, matched
 * by source on import or added, with their caption tracks), and the uploaded images it shows, embedded. The file names its
 * format and version; files of older versions are brought up to the current one before they are
 * read, and a file of a newer version is refused with a message saying so.
 */
export const FUNNEL_EXPORT_FORMAT = 'branchify.funnel';
export const FUNNEL_EXPORT_VERSION = 2;

/** What one import may carry: the file, and the images embedded in it (each within the branch image limit). */
export const FUNNEL_IMPORT_LIMITS = {
  maxFileBytes: 24 * 1024 * 1024,
  maxImages: 40,
  maxImageBytes: CONTENT_LIMITS.branchImageKb * 1024,
} as const;

export const IMPORT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] as const;

const ref = z
  .string({ message: 'must be text' })
  .min(1, { message: 'is required' })
  .max(ID_MAX, { message: `must be at most ${ID_MAX} characters` })
  .regex(/^[A-Za-z0-9_.:-]+$/, { message: 'must be letters, digits, - _ . or :' });

/** An image the funnel stores as one of its owner's uploads. */
const UPLOAD_PATH = /^\/uploads\/[A-Za-z0-9._/-]+$/;
export const isUploadPath = (source: string): boolean => UPLOAD_PATH.test(source) && !source.includes('..');

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const base64Bytes = (data: string): number => Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

const libraryEntrySchema = z.object({
  /** What the funnel's videos name this entry by. */
  ref,
  provider: z.enum(VIDEO_PROVIDERS, { message: `must be one of: ${VIDEO_PROVIDERS.join(', ')}` }),
  /** The video's address (a YouTube, Vimeo or Adilo link, or the file's http(s) URL). */
  url: z.string({ message: 'must be text' }).max(URL_MAX, { message: `must be at most ${URL_MAX} characters` }),
  title: z.string({ message: 'must be text' }).max(255, { message: 'must be at most 255 characters' }).nullish(),
  duration: z.number({ message: 'must be a number' }).min(0).max(864_000).nullish(),
  /** The video's caption tracks, each checked on its own (a track that is not right is left out, and named). */
  captions: z.array(z.unknown(), { message: 'must be a list' }).optional(),
});

const embeddedImageSchema = z.object({
  /** The path the funnel's elements use for it. */
  path: z.string({ message: 'must be text' }).max(URL_MAX).refine(isUploadPath, { message: 'must be an /uploads/ path' }),
  type: z.enum(IMPORT_IMAGE_TYPES, { message: `must be one of: ${IMPORT_IMAGE_TYPES.join(', ')}` }),
  /** The file's bytes, base64. */
  data: z
    .string({ message: 'must be base64 text' })
    .max(Math.ceil(FUNNEL_IMPORT_LIMITS.maxImageBytes / 3) * 4, { message: messageTemplates.imageTooLarge(CONTENT_LIMITS.branchImageKb) })
    .regex(BASE64, { message: 'must be base64 text' })
    .refine((d) => d.length % 4 === 0 && base64Bytes(d) > 0, { message: 'must be base64 text' }),
});

/**
 * The file's outer shape. Each funnel video names its library entry by `video`; the rest of it
 * (elements) is read by the save's own schema once the entries are known.
 */
const exportFileSchema = z.object({
  format: z.literal(FUNNEL_EXPORT_FORMAT, { message: MESSAGES.importNotAnExport }),
  version: z.number({ message: 'must be a number' }).int({ message: 'must be a whole number' }).min(1, { message: 'must be at least 1' }),
  exported_at: z.string().max(64).optional(),
  funnel: z.looseObject({
    videos: z
      .array(z.looseObject({ video: ref }), { message: 'must be a list' })
      .max(CONTENT_LIMITS.maxVideosPerFunnel, { message: `at most ${CONTENT_LIMITS.maxVideosPerFunnel} videos` })
      .default([]),
  }),
  library: z
    .array(libraryEntrySchema, { message: 'must be a list' })
    .max(CONTENT_LIMITS.maxVideosPerFunnel, { message: `at most ${CONTENT_LIMITS.maxVideosPerFunnel} videos` })
    .default([]),
  images: z
    .array(embeddedImageSchema, { message: 'must be a list' })
    .max(FUNNEL_IMPORT_LIMITS.maxImages, { message: `at most ${FUNNEL_IMPORT_LIMITS.maxImages} images` })
    .default([]),
});

/** A caption track as the file carries it: its language, label and WebVTT text as stored. */
export interface ExportedCaptionTrack {
  language: string;
  label: string;
  vtt: string;
}

/** A caption track of the file as read for import: checked as an uploaded file is, or why it is left out. */
type ImportedCaptionTrack =
  | { ok: true; language: string; label: string; vtt: string; cues: number }
  | { ok: false; language: string | null; label: string | null; problem: string };

/** A library entry as read for import, its caption tracks checked. */
export type LibraryEntry = Omit<z.output<typeof libraryEntrySchema>, 'captions'> & { captions: ImportedCaptionTrack[] };
/** A library entry as Export writes it (`captions` only when the video has tracks). */
export type ExportedLibraryEntry = Omit<LibraryEntry, 'captions'> & { captions?: ExportedCaptionTrack[] };
export type EmbeddedImage = z.output<typeof embeddedImageSchema>;

const textOf = (value: unknown): string | null => (typeof value === 'string' ? value.slice(0, CAPTION_LIMITS.maxLabelLength) : null);

/**
 * One caption track of the file, checked as an upload is: its language and label by the upload
 * form's schema, its text within the upload's size limit and read by the same parser.
 */
const readCaptionTrack = (raw: unknown): ImportedCaptionTrack => {
  const fields = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const named = { language: textOf(fields.language), label: textOf(fields.label) };
  const input = captionTrackSchema.safeParse({ language: fields.language, label: fields.label });
  if (!input.success) return { ok: false, ...named, problem: input.error.issues[0]!.message };
  if (typeof fields.vtt !== 'string') return { ok: false, ...named, problem: MESSAGES.captionFileRequired };
  const bytes = new TextEncoder().encode(fields.vtt);
  if (bytes.length > CAPTION_LIMITS.maxFileKb * 1024) return { ok: false, ...named, problem: messageTemplates.captionFileTooLarge(CAPTION_LIMITS.maxFileKb) };
  const parsed = parseCaptionFile(bytes, 'vtt');
  if (!parsed.ok) return { ok: false, ...named, problem: captionProblemText(parsed.problem) };
  return { ok: true, ...input.data, vtt: parsed.vtt, cues: parsed.cues.length };
};

/** The file as Export writes it. */
export interface FunnelExportFile {
  format: typeof FUNNEL_EXPORT_FORMAT;
  version: typeof FUNNEL_EXPORT_VERSION;
  exported_at: string;
  funnel: Omit<FunnelDocument, 'videos'> & { videos: Array<Omit<FunnelDocument['videos'][number], 'id'> & { video: string }> };
  library: ExportedLibraryEntry[];
  images: EmbeddedImage[];
}

/** A file read for import: the document (its video ids are library positions, 1-based), the entries and images. */
export interface ReadExport {
  document: FunnelDocument;
  library: LibraryEntry[];
  images: EmbeddedImage[];
}

export type ImportProblem = { path: string; message: string };
type Read = { ok: true; value: ReadExport } | { ok: false; problems: ImportProblem[] };

/**
 * Older versions, each brought one version up. Version 1 is the first; a later version adds its
 * step here (`[n]: file of version n → file of version n + 1`), so every older file still imports.
 */
const UPGRADES: Record<number, (file: Record<string, unknown>) => Record<string, unknown>> = {
  /** Version 2 adds the funnel's variables (and conditions, empty by default): a version-1 funnel has none. */
  1: (file) => ({ ...file, funnel: { ...(file.funnel as Record<string, unknown>), variables: [] } }),
};

const issuesOf = (error: z.ZodError, prefix: Array<string | number> = []): ImportProblem[] =>
  error.issues.map((issue) => ({ path: [...prefix, ...issue.path].map(String).join('.') || '_', message: issue.message }));

const upgrade = (file: Record<string, unknown>, from: number): Record<string, unknown> => {
  let current = file;
  for (let v = from; v < FUNNEL_EXPORT_VERSION; v += 1) current = { ...UPGRADES[v]!(current), version: v + 1 };
  return current;
};

/** Every upload path an element shows: button images and backgrounds, overlay images. */
const imageSlots = (element: FunnelElement): Array<{ get: () => string | null; set: (v: string | null) => void }> => {
  if (element.type !== 'branch') return [];
  const { data } = element;
  return [
    { get: () => data.overlay.image.source, set: (v: string | null) => void (data.overlay.image.source = v) },
    ...data.branches.flatMap((b) => [
      { get: () => b.image.source, set: (v: string | null) => void (b.image.source = v) },
      { get: () => b.standard.background.image, set: (v: string | null) => void (b.standard.background.image = v) },
    ]),
  ];
};

/** The uploaded images (/uploads/…) a document shows, each once. */
export const uploadedImagesOf = (doc: Pick<FunnelDocument, 'videos'>): string[] => {
  const found = new Set<string>();
  for (const video of doc.videos)
    for (const element of video.elements)
      for (const slot of imageSlots(element)) {
        const source = slot.get();
        if (source && isUploadPath(source)) found.add(source);
      }
  return [...found];
};

/** The document with each uploaded image replaced as `to` says, null emptying its place (images not named are left as they are). */
export const replaceImages = (doc: FunnelDocument, to: ReadonlyMap<string, string | null>): FunnelDocument => {
  const copy = structuredClone(doc);
  for (const video of copy.videos)
    for (const element of video.elements)
      for (const slot of imageSlots(element)) {
        const source = slot.get();
        if (source && to.has(source)) slot.set(to.get(source) ?? null);
      }
  return copy;
};

/**
 * Reads an export file: its shape, its version (older ones brought up to date), the funnel with the
 * save's own schema, every video naming an entry of the library and every uploaded image embedded.
 * Problems name the path in the file.
 */
export const readFunnelExport = (input: unknown): Read => {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, problems: [{ path: '_', message: MESSAGES.importNotAnExport }] };
  const raw = input as Record<string, unknown>;
  if (raw.format !== FUNNEL_EXPORT_FORMAT) return { ok: false, problems: [{ path: 'format', message: MESSAGES.importNotAnExport }] };
  if (typeof raw.version === 'number' && raw.version > FUNNEL_EXPORT_VERSION) {
    return { ok: false, problems: [{ path: 'version', message: messageTemplates.importNewerVersion(raw.version, FUNNEL_EXPORT_VERSION) }] };
  }
  const outer = exportFileSchema.safeParse(raw);
  if (!outer.success) return { ok: false, problems: issuesOf(outer.error) };
  const file = exportFileSchema.parse(upgrade(raw, outer.data.version));

  const problems: ImportProblem[] = [];
  const position = new Map<string, number>();
  file.library.forEach((entry, i) => {
    if (position.has(entry.ref)) problems.push({ path: `library.${i}.ref`, message: 'must be unique in the file' });
    else position.set(entry.ref, i + 1);
  });
  const videos = file.funnel.videos.map((video, i) => {
    const id = position.get(video.video);
    if (id === undefined) problems.push({ path: `funnel.videos.${i}.video`, message: MESSAGES.importVideoNotInLibrary });
    const { video: _ref, ...rest } = video;
    return { ...rest, id: id ?? 0 };
  });
  if (problems.length) return { ok: false, problems };

  const parsed = funnelDocumentSchema.safeParse({ ...file.funnel, videos });
  if (!parsed.success) return { ok: false, problems: issuesOf(parsed.error, ['funnel']) };

  const embedded = new Set(file.images.map((image) => image.path));
  if (embedded.size !== file.images.length) problems.push({ path: 'images', message: 'each path must be embedded once' });
  for (const path of uploadedImagesOf(parsed.data))
    if (!embedded.has(path)) problems.push({ path: 'images', message: messageTemplates.importImageMissing(path) });
  if (problems.length) return { ok: false, problems };
  const library = file.library.map(({ captions, ...entry }) => ({ ...entry, captions: (captions ?? []).map(readCaptionTrack) }));
  return { ok: true, value: { document: parsed.data, library, images: file.images } };
};
