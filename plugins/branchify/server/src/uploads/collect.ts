import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { CreatorImageRow } from '../content-types/creator-image';

/** An image untouched this long that no funnel or video of its owner shows is deleted. */
const UNUSED_IMAGE_GRACE_MS = 24 * 60 * 60_000;
/** Images looked at per sweep: each costs a query or two, so a sweep stays short. */
const PER_SWEEP = 200;

const IMAGES = 'branchify_creator_images';
const FUNNELS = 'branchify_funnels';
const VIDEOS = 'branchify_videos';

/** `text` as a LIKE pattern matching itself anywhere (`\` escapes the wildcards). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Deletes creator images no funnel document or video thumbnail of their owner shows, once they
 * have not been stored or reused for the grace period (an upload the editor has not saved yet is
 * kept that long). Looks at the oldest images after `after` (an id), at most PER_SWEEP; answers
 * what it deleted and where the next sweep starts (0: from the beginning).
 */
export const collectUnusedImages = async (strapi: Strapi, after = 0): Promise<{ deleted: string[]; next: number }> => {
  const db = strapi.db.connection;
  const cutoff = new Date(Date.now() - UNUSED_IMAGE_GRACE_MS);
  const rows: CreatorImageRow[] = await db(IMAGES)
    .where('id', '>', after)
    .andWhere('updated_at', '<', cutoff)
    .orderBy('id')
    .limit(PER_SWEEP)
    .select('id', 'owner_id', 'url', 'file_id');
  const text = strapi.db.dialect.client === 'postgres' ? 'CAST(videos AS TEXT)' : 'videos';
  const unused: CreatorImageRow[] = [];
  for (const row of rows) {
    const shown: unknown = await db(FUNNELS)
      .where({ owner_id: row.owner_id })
      .andWhereRaw(`${text} LIKE ? ESCAPE '\\'`, [containing(row.url)])
      .first('id');
    const thumbnail: unknown = shown ? null : await db(VIDEOS).where({ owner_id: row.owner_id, thumbnail: row.url }).first('id');
    if (!shown && !thumbnail) unused.push(row);
  }
  if (unused.length) {
    // Deleted only while still untouched: an import reusing one meanwhile keeps it.
    const ids = unused.map((r) => r.id);
    await db(IMAGES).whereIn('id', ids).andWhere('updated_at', '<', cutoff).delete();
    const left = new Set((await db(IMAGES).whereIn('id', ids).select('id')).map((r: { id: number }) => r.id));
    const deleted = unused.filter((r) => !left.has(r.id));
    await getService(strapi, 'creator-images').deleteFiles(deleted);
    if (deleted.length) strapi.log.info(`[images] ${deleted.length} unused image(s) collected`);
    return { deleted: deleted.map((r) => r.url), next: rows.length === PER_SWEEP ? rows.at(-1)!.id : 0 };
  }
  return { deleted: [], next: rows.length === PER_SWEEP ? rows.at(-1)!.id : 0 };
};
