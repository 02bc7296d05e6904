import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  countElements,
  createVideoSchema,
  FUNNEL_EXPORT_FORMAT,
  FUNNEL_EXPORT_VERSION,
  IMPORT_IMAGE_TYPES,
  messageTemplates,
  readFunnelExport,
  replaceImages,
  uploadedImagesOf,
  type EmbeddedImage,
  type FunnelDocument,
  type FunnelExportFile,
  type FunnelImportPlan,
  type ImportProblem,
  type LibraryEntry,
  type VideoInput,
} from '@branchify/shared';
import { unprocessable, type FieldErrors } from '../http/errors';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { settingsOf, variablesOf } from './present';
import type { FunnelRow } from '../content-types/funnel';
import type { VideoRow } from '../content-types/video';
import type { UserRecord } from '../content-types/users-permissions';

const TYPE_BY_EXTENSION: Record<string, (typeof IMPORT_IMAGE_TYPES)[number]> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};
const EXTENSION_BY_TYPE: Record<(typeof IMPORT_IMAGE_TYPES)[number], string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
};

/** The one key a video is known by across installs: its provider's id, or a direct file's URL. */
const sourceKey = (v: { provider: string; external_id: string | null; source_url: string | null }): string =>
  `${v.provider}:${v.external_id ?? v.source_url ?? ''}`;

/** A refusal that names the first problem and lists them all by their path in the file. */
const refuse = (problems: readonly ImportProblem[]): never => {
  const errors: FieldErrors = {};
  for (const p of problems) (errors[p.path] ??= []).push(p.message);
  const first = problems[0]!;
  throw unprocessable(messageTemplates.importInvalid(first.path, first.message), errors);
};

const uploadFile = (strapi: Strapi, url: string) => path.join(strapi.dirs.static.public, 'uploads', path.basename(url));

/** The owner's stored images the document shows, read as they are on disk; one that cannot be read is left out. */
const embedImages = async (strapi: Strapi, funnel: FunnelRow, doc: FunnelDocument): Promise<{ images: EmbeddedImage[]; missing: string[] }> => {
  const images: EmbeddedImage[] = [];
  const missing: string[] = [];
  for (const url of uploadedImagesOf(doc)) {
    const owned = await query(strapi, UID.creatorImage).findOne({ where: { owner_id: funnel.owner_id, url }, select: ['id'] });
    const type = TYPE_BY_EXTENSION[path.extname(url).toLowerCase()];
    const bytes = owned && type ? await fs.readFile(uploadFile(strapi, url)).catch(() => null) : null;
    if (bytes && type) images.push({ path: url, type, data: bytes.toString('base64') });
    else missing.push(url);
  }
  return { images, missing };
};

const libraryEntry = (row: VideoRow, ref: string): LibraryEntry => ({
  ref,
  provider: row.provider,
  url: row.source ?? row.source_url ?? row.embed_url ?? '',
  title: row.title,
  duration: row.duration === null ? null : Number(row.duration),
});

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

/** The plan's checks an import passes: each added provider, the elements; the funnel count is checked as it is created. */
const assertWithinPlan = async (strapi: Strapi, user: UserRecord, doc: FunnelDocument, matched: Matched) => {
  const limits = getService(strapi, 'plan-limits');
  for (const provider of new Set(matched.filter((m) => !m.existing).map((m) => m.input.source.provider))) {
    await limits.assert(user, { kind: 'video_source', provider });
  }
  await limits.assert(user, { kind: 'elements', branches: countElements(doc.videos, 'branch'), texts: countElements(doc.videos, 'text') });
};

const planOf = (doc: FunnelDocument, matched: Matched, images: readonly EmbeddedImage[]): FunnelImportPlan => ({
  title: doc.title,
  videos: doc.videos.length,
  elements: { branches: countElements(doc.videos, 'branch'), texts: countElements(doc.videos, 'text') },
  matched: matched.filter((m) => m.existing).map((m) => ({ ref: m.entry.ref, title: m.existing!.title, video_id: m.existing!.id })),
  added: matched.filter((m) => !m.existing).map((m) => ({ ref: m.entry.ref, title: m.input.title ?? m.entry.url, provider: m.input.source.provider })),
  images: images.length,
});

/** Each embedded image stored as one of the importer's uploads (checked as an upload is); their new paths. */
const storeImages = async (strapi: Strapi, userId: number, images: readonly EmbeddedImage[]): Promise<Map<string, string>> => {
  const stored = new Map<string, string>();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'funnel-import-'));
  try {
    for (const [i, image] of images.entries()) {
      const filepath = path.join(dir, `${i}${EXTENSION_BY_TYPE[image.type]}`);
      const bytes = Buffer.from(image.data, 'base64');
      await fs.writeFile(filepath, bytes);
      try {
        const row = await getService(strapi, 'creator-images').store(userId, {
          filepath,
          originalFilename: path.basename(filepath),
          mimetype: image.type,
          size: bytes.length,
        });
        stored.set(image.path, row.url);
      } catch (error) {
        // A refused image names its place in the file, like every other problem.
        const status = (error as { status?: number }).status;
        if (status !== 422) throw error;
        const details = (error as { details?: { errors?: FieldErrors } }).details?.errors ?? {};
        refuse([{ path: `images.${i}.data`, message: Object.values(details).flat()[0] ?? (error as Error).message }]);
      }
    }
    return stored;
  } catch (error) {
    await releaseImages(strapi, userId, stored);
    throw error;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
};

const releaseImages = async (strapi: Strapi, userId: number, stored: ReadonlyMap<string, string>) => {
  for (const url of stored.values()) await getService(strapi, 'creator-images').release(userId, url);
};

/**
 * Export and import: a funnel as one file (its document, the library entries its videos play and
 * its uploaded images embedded), and a new funnel made from such a file in another account or install.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  return {
    /** The funnel as a file; images the owner no longer has are left out of it (and their places emptied). */
    async exportFile(funnel: FunnelRow): Promise<FunnelExportFile> {
      const videos = funnel.videos ?? [];
      const rows = await getService(strapi, 'videos').findMany(
        funnel.owner_id,
        videos.map((v) => v.id),
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const refs = new Map<number, string>();
      const library: LibraryEntry[] = [];
      for (const v of videos) {
        const row = byId.get(v.id);
        if (!row || refs.has(v.id)) continue;
        refs.set(v.id, `video-${library.length + 1}`);
        library.push(libraryEntry(row, refs.get(v.id)!));
      }
      const doc: FunnelDocument = {
        title: funnel.title,
        description: funnel.description ?? '',
        settings: settingsOf(funnel),
        variables: variablesOf(funnel),
        videos: videos.filter((v) => refs.has(v.id)),
      };
      const { images, missing } = await embedImages(strapi, funnel, doc);
      if (missing.length) strapi.log.warn(`[funnels] export of funnel ${funnel.id}: ${missing.length} image(s) not found, left out`);
      const shown = missing.length ? replaceImages(doc, new Map(missing.map((m) => [m, null]))) : doc;
      return {
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
        images,
      };
    },

    /**
     * Reads the file and checks it against the importer's plan; with `dryRun`, answers what would be
     * made. Otherwise stores the images, then counts the importer's funnels against the plan, adds the
     * missing videos and creates the funnel in one transaction: all of it is made, or none (stored
     * images are deleted again when the rest is refused).
     */
    async importFile(user: UserRecord, input: unknown, options: { dryRun: boolean }): Promise<{ plan: FunnelImportPlan; funnel: FunnelRow | null }> {
      const read = readFunnelExport(input);
      if (!read.ok) return refuse(read.problems);
      const { document, library, images } = read.value;
      const matched = await matchLibrary(strapi, user.id, library, parseEntries(library));
      await assertWithinPlan(strapi, user, document, matched);
      const plan = planOf(document, matched, images);
      if (options.dryRun) return { plan, funnel: null };

      const stored = await storeImages(strapi, user.id, images);
      try {
        // The videos are added once the funnel count has passed, in the funnel's transaction.
        const withVideos = async () => {
          const ids: number[] = [];
          for (const m of matched) ids.push(m.existing ? m.existing.id : (await getService(strapi, 'videos').create(user.id, m.input)).id);
          const withImages = replaceImages(document, stored);
          return { ...withImages, videos: withImages.videos.map((v) => ({ ...v, id: ids[v.id - 1]! })) };
        };
        const funnel = await getService(strapi, 'funnels').createCounted(user.id, withVideos, (count) =>
          getService(strapi, 'plan-limits').assert(user, { kind: 'funnels', count }),
        );
        strapi.log.info(`[funnels] user ${user.id} imported funnel ${funnel.id} (${plan.added.length} videos added, ${plan.images} images)`);
        return { plan, funnel };
      } catch (error) {
        await releaseImages(strapi, user.id, stored);
        throw error;
      }
    },
  };
};
