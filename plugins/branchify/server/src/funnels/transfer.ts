import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CAPTION_LIMITS,
  countElements,
  createVideoSchema,
  FUNNEL_EXPORT_FORMAT,
  FUNNEL_EXPORT_VERSION,
  IMPORT_IMAGE_TYPES,
  messageTemplates,
  replaceImages,
  uploadedImagesOf,
  messageTemplates as messages,
  type ExportedCaptionTrack,
  type ExportedLibraryEntry,
  type FunnelDocument,
  type FunnelExportFile,
  type FunnelImportPlan,
  type ImportProblem,
  type LibraryEntry,
  type VideoInput,
} from '@branchify/shared';
import { AppError, tooManyRequests, unprocessable, type FieldErrors } from '../http/errors';
import type { DecodedImage } from '../offload/tasks';
import { accountBucket } from '../middlewares/rate-limit';
import { IMAGE_UPLOAD_LIMIT } from '../uploads/service';
import type { ImportRead } from './import-body';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { settingsOf, variablesOf } from './present';
import { distinctTitle } from './titles';
import type { FunnelRow } from '../content-types/funnel';
import type { VideoRow } from '../content-types/video';
import type { CaptionTrackRow } from '../content-types/caption-track';
import type { UserRecord } from '../content-types/users-permissions';

const TYPE_BY_EXTENSION: Record<string, (typeof IMPORT_IMAGE_TYPES)[number]> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** The one key a video is known by across installs: its provider's id, or a direct file's URL. */
const sourceKey = (v: { provider: string; external_id: string | null; source_url: string | null }): string =>
  `${v.provider}:${v.external_id ?? v.source_url ?? ''}`;

/** A refusal that names the first problem and lists them all by their path in the file. */
export const refuse = (problems: readonly ImportProblem[]): never => {
  const errors: FieldErrors = {};
  for (const p of problems) (errors[p.path] ??= []).push(p.message);
  const first = problems[0]!;
  throw unprocessable(messageTemplates.importInvalid(first.path, first.message), errors);
};

const uploadFile = (strapi: Strapi, url: string) => path.join(strapi.dirs.static.public, 'uploads', path.basename(url));

/** An image the export embeds: the owner's stored file the document shows. */
interface ExportedImage {
  path: string;
  type: (typeof IMPORT_IMAGE_TYPES)[number];
  file: string;
}

/** The owner's stored images the document shows that are on disk; the others are left out. */
const imagesToEmbed = async (strapi: Strapi, funnel: FunnelRow, doc: FunnelDocument): Promise<{ images: ExportedImage[]; missing: string[] }> => {
  const images: ExportedImage[] = [];
  const missing: string[] = [];
  for (const url of uploadedImagesOf(doc)) {
    const owned = await query(strapi, UID.creatorImage).findOne({ where: { owner_id: funnel.owner_id, url }, select: ['id'] });
    const type = TYPE_BY_EXTENSION[path.extname(url).toLowerCase()];
    const file = uploadFile(strapi, url);
    const stat = owned && type ? await fs.stat(file).catch(() => null) : null;
    if (stat?.isFile() && type) images.push({ path: url, type, file });
    else missing.push(url);
  }
  return { images, missing };
};

/** Bytes read per step of an image's base64: a multiple of 3, so the pieces join into one base64 text. */
const BASE64_STEP = 48 * 1024;

/** A file's bytes as base64, a piece at a time. */
async function* base64Of(file: string): AsyncGenerator<string> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { highWaterMark: BASE64_STEP })) {
    const bytes = rest.length ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    const whole = bytes.length - (bytes.length % 3);
    if (whole) yield bytes.subarray(0, whole).toString('base64');
    rest = bytes.subarray(whole);
  }
  if (rest.length) yield rest.toString('base64');
}

/**
 * The export file as text, written as it is read: everything but the images as one JSON text, then
 * each image's bytes streamed from storage, so memory stays bounded whatever the funnel shows.
 */
async function* exportText(file: Omit<FunnelExportFile, 'images'>, images: readonly ExportedImage[]): AsyncGenerator<string> {
  const head = JSON.stringify({ ...file, images: [] }, null, 2);
  // The head ends with `"images": []\n}`: the images go between the brackets.
  yield head.slice(0, head.lastIndexOf('[]') + 1);
  for (const [i, image] of images.entries()) {
    yield `${i ? ',' : ''}\n    {\n      "path": ${JSON.stringify(image.path)},\n      "type": ${JSON.stringify(image.type)},\n      "data": "`;
    yield* base64Of(image.file);
    yield '"\n    }';
  }
  yield `${images.length ? '\n  ' : ''}]\n}`;
}

const libraryEntry = (row: VideoRow, ref: string, captions: ExportedCaptionTrack[]): ExportedLibraryEntry => ({
  ref,
  provider: row.provider,
  url: row.source ?? row.source_url ?? row.embed_url ?? '',
  title: row.title,
  duration: row.duration === null ? null : Number(row.duration),
  ...(captions.length ? { captions } : {}),
});

/** The caption tracks of the owner's videos, each as the file carries it (its WebVTT text as stored), by video id. */
const tracksToExport = async (strapi: Strapi, ownerId: number, videoIds: readonly number[]): Promise<Map<number, ExportedCaptionTrack[]>> => {
  const out = new Map<number, ExportedCaptionTrack[]>();
  if (!videoIds.length) return out;
  const rows: Array<Pick<CaptionTrackRow, 'video_id' | 'language' | 'label' | 'content'>> = await query(strapi, UID.captionTrack).findMany({
    where: { owner_id: ownerId, video_id: { $in: [...videoIds] } },
    select: ['video_id', 'language', 'label', 'content'],
    orderBy: [{ language: 'asc' }, { id: 'asc' }],
  });
  for (const row of rows) out.set(row.video_id, [...(out.get(row.video_id) ?? []), { language: row.language, label: row.label, vtt: row.content }]);
  return out;
};

/** Each entry parsed as the create-video form parses it (422 naming the entry when it is not a video). */
const parseEntries = (library: readonly LibraryEntry[]): VideoInput[] => {
  const problems: ImportProblem[] = [];
  const inputs = library.map((entry, i) => {
    const parsed = createVideoSchema.safeParse({ provider: entry.provider, url: entry.url, title: entry.title ?? null, duration: entry.duration ?? null });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) problems.push({ path: `library.${i}.${issue.path.join('.') || 'url'}`, message: issue.message });
    return null;
  });
  if (problems.length) refuse(problems);
  return inputs as VideoInput[];
};

/** Entries the importer's library already has (same source) are used; the others will be added. */
const matchLibrary = async (strapi: Strapi, userId: number, library: readonly LibraryEntry[], inputs: readonly VideoInput[]) => {
  const own: Array<Pick<VideoRow, 'id' | 'title' | 'provider' | 'external_id' | 'source_url'>> = await query(strapi, UID.video).findMany({
    where: { owner_id: userId, provider: { $in: [...new Set(inputs.map((i) => i.source.provider))] } },
    select: ['id', 'title', 'provider', 'external_id', 'source_url'],
    orderBy: { id: 'asc' },
  });
  const byKey = new Map<string, (typeof own)[number]>();
  for (const row of own) if (!byKey.has(sourceKey(row))) byKey.set(sourceKey(row), row);
  return inputs.map((input, i) => ({ entry: library[i]!, input, existing: byKey.get(sourceKey(input.source)) ?? null }));
};

type Matched = Awaited<ReturnType<typeof matchLibrary>>;

/** A caption track of the file that a video of the import gets: the entry's position and the checked track. */
interface TrackToAdd {
  entry: number;
  track: Extract<LibraryEntry['captions'][number], { ok: true }>;
}

type CaptionPlan = FunnelImportPlan['captions'] & { tracks: TrackToAdd[] };

/**
 * Which of the file's caption tracks the import adds, and why each other one is left out: not a
 * track an upload would take, a language the video has (in the library already, or twice in the
 * file), or beyond the tracks a video holds.
 */
const planCaptions = async (strapi: Strapi, matched: Matched): Promise<CaptionPlan> => {
  const existingIds = matched.flatMap((m) => (m.existing ? [m.existing.id] : []));
  const existing = await getService(strapi, 'captions').byVideos(existingIds);
  const plan: CaptionPlan = { added: [], skipped: [], tracks: [] };
  /** Languages per video the import ends with: a library video's own, or a new video's (one per entry). */
  const languages = new Map<string, Set<string>>();
  matched.forEach((m, entry) => {
    const video = m.existing?.title ?? m.input.title ?? m.entry.url;
    const key = m.existing ? `video:${m.existing.id}` : `entry:${entry}`;
    const held = languages.get(key) ?? new Set((m.existing ? (existing.get(m.existing.id) ?? []) : []).map((t) => t.language));
    languages.set(key, held);
    for (const track of m.entry.captions) {
      const named = { ref: m.entry.ref, video, language: track.language, label: track.label };
      if (!track.ok) plan.skipped.push({ ...named, reason: track.problem });
      else if (held.has(track.language)) plan.skipped.push({ ...named, reason: messages.captionLanguageTaken(track.language) });
      else if (held.size >= CAPTION_LIMITS.maxTracksPerVideo)
        plan.skipped.push({ ...named, reason: messages.captionTracksFull(CAPTION_LIMITS.maxTracksPerVideo) });
      else {
        held.add(track.language);
        plan.added.push({ ref: m.entry.ref, video, language: track.language, label: track.label });
        plan.tracks.push({ entry, track });
      }
    }
  });
  return plan;
};

/** The plan's checks an import passes: each added provider, the elements; the funnel count is checked as it is created. */
const assertWithinPlan = async (strapi: Strapi, user: UserRecord, doc: FunnelDocument, matched: Matched) => {
  const limits = getService(strapi, 'plan-limits');
  for (const provider of new Set(matched.filter((m) => !m.existing).map((m) => m.input.source.provider))) {
    await limits.assert(user, { kind: 'video_source', provider });
  }
  await limits.assert(user, { kind: 'elements', branches: countElements(doc.videos, 'branch'), texts: countElements(doc.videos, 'text') });
};

const planOf = (title: string, doc: FunnelDocument, matched: Matched, images: readonly DecodedImage[], captions: CaptionPlan): FunnelImportPlan => ({
  title,
  videos: doc.videos.length,
  elements: { branches: countElements(doc.videos, 'branch'), texts: countElements(doc.videos, 'text') },
  matched: matched.filter((m) => m.existing).map((m) => ({ ref: m.entry.ref, title: m.existing!.title, video_id: m.existing!.id })),
  added: matched.filter((m) => !m.existing).map((m) => ({ ref: m.entry.ref, title: m.input.title ?? m.entry.url, provider: m.input.source.provider })),
  images: images.length,
  captions: { added: captions.added, skipped: captions.skipped },
});

/**
 * The images the funnel shows, each stored as one of the importer's uploads (checked as an upload
 * is, and counted against the same upload budget), or the importer's image an earlier import stored
 * with the same bytes. Answers each path's new address, and the images this import added.
 */
const storeImages = async (strapi: Strapi, userId: number, images: readonly DecodedImage[]): Promise<{ urls: Map<string, string>; added: string[] }> => {
  const urls = new Map<string, string>();
  const added: string[] = [];
  try {
    for (const [i, image] of images.entries()) {
      const known = await query(strapi, UID.creatorImage).findOne({ where: { owner_id: userId, content_hash: image.sha256 }, select: ['id', 'url'] });
      if (!known) {
        const verdict = await getService(strapi, 'rateLimit').hit(accountBucket(IMAGE_UPLOAD_LIMIT, userId), 'account', 'upload');
        if (!verdict.allowed) throw tooManyRequests(verdict.retryAfterSeconds);
      }
      try {
        const { row, created } = await getService(strapi, 'creator-images').storeImported(
          userId,
          { filepath: image.file, originalFilename: path.basename(image.file), mimetype: image.type, size: image.size },
          image.sha256,
        );
        urls.set(image.path, row.url);
        if (created) added.push(row.url);
      } catch (error) {
        // A refused image names its place in the file, like every other problem.
        const status = (error as { status?: number }).status;
        if (status !== 422) throw error;
        const details = (error as { details?: { errors?: FieldErrors } }).details?.errors ?? {};
        refuse([{ path: `images.${i}.data`, message: Object.values(details).flat()[0] ?? (error as Error).message }]);
      }
    }
    return { urls, added };
  } catch (error) {
    await releaseImages(strapi, userId, added);
    throw error;
  }
};

/**
 * The planned caption tracks, each added as an upload is (in the import's transaction). One the
 * video took meanwhile (a track in that language, or its last free place) is left out and logged.
 */
const addCaptions = async (strapi: Strapi, videos: readonly VideoRow[], tracks: readonly TrackToAdd[]): Promise<void> => {
  for (const { entry, track } of tracks) {
    const video = videos[entry]!;
    try {
      await getService(strapi, 'captions').add(video, { language: track.language, label: track.label }, { vtt: track.vtt, cues: track.cues });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      strapi.log.info(`[funnels] import: the ${track.language} caption track was not added to video ${video.id}: ${error.message}`);
    }
  }
};

/**
 * The new funnel's document, made in the import's transaction: the library videos it plays (the
 * importer's own, or added) with their caption tracks, its images at their new addresses, and a
 * title the importer's funnels do not have.
 */
const importedDocument = async (
  strapi: Strapi,
  userId: number,
  made: { document: FunnelDocument; matched: Matched; images: ReadonlyMap<string, string>; tracks: readonly TrackToAdd[] },
): Promise<FunnelDocument> => {
  const rows: VideoRow[] = [];
  for (const m of made.matched) {
    const row = m.existing ? await getService(strapi, 'videos').find(userId, m.existing.id) : null;
    rows.push(row ?? (await getService(strapi, 'videos').create(userId, m.input)));
  }
  await addCaptions(strapi, rows, made.tracks);
  const withImages = replaceImages(made.document, made.images);
  const title = await distinctTitle(strapi, userId, made.document.title);
  return { ...withImages, title, videos: withImages.videos.map((v) => ({ ...v, id: rows[v.id - 1]!.id })) };
};

const releaseImages = async (strapi: Strapi, userId: number, urls: readonly string[]) => {
  for (const url of urls) await getService(strapi, 'creator-images').release(userId, url);
};

/**
 * Export and import: a funnel as one file (its document, the library entries its videos play and
 * its uploaded images embedded), and a new funnel made from such a file in another account or install.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  return {
    /**
     * The funnel as a file, streamed (its images read from storage as it is sent); images the
     * owner no longer has are left out of it (and their places emptied).
     */
    async exportStream(funnel: FunnelRow, around: { before: string; after: string } = { before: '', after: '' }): Promise<Readable> {
      const videos = funnel.videos ?? [];
      const rows = await getService(strapi, 'videos').findMany(
        funnel.owner_id,
        videos.map((v) => v.id),
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const captions = await tracksToExport(
        strapi,
        funnel.owner_id,
        rows.map((r) => r.id),
      );
      const refs = new Map<number, string>();
      const library: ExportedLibraryEntry[] = [];
      for (const v of videos) {
        const row = byId.get(v.id);
        if (!row || refs.has(v.id)) continue;
        refs.set(v.id, `video-${library.length + 1}`);
        library.push(libraryEntry(row, refs.get(v.id)!, captions.get(v.id) ?? []));
      }
      const doc: FunnelDocument = {
        title: funnel.title,
        description: funnel.description ?? '',
        settings: settingsOf(funnel),
        variables: variablesOf(funnel),
        videos: videos.filter((v) => refs.has(v.id)),
      };
      const { images, missing } = await imagesToEmbed(strapi, funnel, doc);
      if (missing.length) strapi.log.warn(`[funnels] export of funnel ${funnel.id}: ${missing.length} image(s) not found, left out`);
      const shown = missing.length ? replaceImages(doc, new Map(missing.map((m) => [m, null]))) : doc;
      const file = {
        format: FUNNEL_EXPORT_FORMAT,
        version: FUNNEL_EXPORT_VERSION,
        exported_at: new Date().toISOString(),
        funnel: {
          title: shown.title,
          description: shown.description,
          settings: shown.settings,
          variables: shown.variables,
          videos: shown.videos.map(({ id, ...rest }) => ({ ...rest, video: refs.get(id)! })),
        },
        library,
      } satisfies Omit<FunnelExportFile, 'images'>;
      return Readable.from(
        (async function* () {
          yield around.before;
          yield* exportText(file, images);
          yield around.after;
        })(),
      );
    },

    /**
     * Checks a file read on a worker thread against the importer's plan; with `dryRun`, answers
     * what would be made and stores nothing. Otherwise stores the images the funnel shows, then
     * counts the importer's funnels against the plan, adds the missing videos and creates the
     * funnel in one transaction: all of it is made, or none (the images it added are deleted again).
     */
    async importFile(user: UserRecord, read: ImportRead, options: { dryRun: boolean }): Promise<{ plan: FunnelImportPlan; funnel: FunnelRow | null }> {
      const { document, library, images } = read;
      const matched = await matchLibrary(strapi, user.id, library, parseEntries(library));
      await assertWithinPlan(strapi, user, document, matched);
      const captions = await planCaptions(strapi, matched);
      const plan = planOf(await distinctTitle(strapi, user.id, document.title), document, matched, images, captions);
      if (options.dryRun) return { plan, funnel: null };

      const stored = await storeImages(strapi, user.id, images);
      try {
        // The videos are added once the funnel count has passed, in the funnel's transaction.
        const withVideos = () => importedDocument(strapi, user.id, { document, matched, images: stored.urls, tracks: captions.tracks });
        const funnel = await getService(strapi, 'funnels').createCounted(user.id, withVideos, (count) =>
          getService(strapi, 'plan-limits').assert(user, { kind: 'funnels', count }),
        );
        strapi.log.info(
          `[funnels] user ${user.id} imported funnel ${funnel.id} (${plan.added.length} videos added, ${plan.images} images, ${stored.added.length} stored, ` +
            `${captions.added.length} caption tracks added, ${captions.skipped.length} left out)`,
        );
        return { plan, funnel };
      } catch (error) {
        await releaseImages(strapi, user.id, stored.added);
        throw error;
      }
    },
  };
};
