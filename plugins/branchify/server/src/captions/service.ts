import crypto from 'node:crypto';
import { CAPTION_LIMITS, messageTemplates, type CaptionTrackInput } from '@branchify/shared';
import { AppError, validationError } from '../http/errors';
import { isUniqueViolation } from '../utils/db-errors';
import { durableTransaction } from '../utils/durable-transaction';
import { query, UID, type Strapi } from '../utils/strapi';
import type { CaptionTrackRow } from '../content-types/caption-track';
import type { VideoRow } from '../content-types/video';

/** A track without its file (what lists and payloads need). */
export type CaptionTrackSummary = Omit<CaptionTrackRow, 'content'>;

const SUMMARY = ['id', 'owner_id', 'video_id', 'key', 'language', 'label', 'size', 'cues', 'createdAt'] as const;

/** Caption tracks of library videos: every query by owner (or by the file's unguessable key). */
export default ({ strapi }: { strapi: Strapi }) => {
  const tracks = () => query(strapi, UID.captionTrack);

  return {
    /** The tracks of these videos, by video id, in language order. */
    async byVideos(videoIds: readonly number[]): Promise<Map<number, CaptionTrackSummary[]>> {
      const out = new Map<number, CaptionTrackSummary[]>();
      if (!videoIds.length) return out;
      const rows = (await tracks().findMany({
        where: { video_id: { $in: [...new Set(videoIds)] } },
        select: [...SUMMARY],
        orderBy: [{ language: 'asc' }, { id: 'asc' }],
      })) as CaptionTrackSummary[];
      for (const row of rows) out.set(row.video_id, [...(out.get(row.video_id) ?? []), row]);
      return out;
    },

    async find(ownerId: number, videoId: number, id: number): Promise<CaptionTrackSummary | null> {
      return tracks().findOne({ where: { id, video_id: videoId, owner_id: ownerId }, select: [...SUMMARY] });
    },

    /**
     * Adds a track if the video has room and no track in that language, counting and inserting as
     * one step per video: on PostgreSQL the video's row is locked for the transaction; SQLite has
     * one writer. The unique (video, language) index stands behind the check.
     */
    async add(video: VideoRow, input: CaptionTrackInput, file: { vtt: string; cues: number }): Promise<CaptionTrackSummary> {
      const taken = () => validationError({ language: [messageTemplates.captionLanguageTaken(input.language)] });
      try {
        return await durableTransaction(strapi, async ({ trx }) => {
          if (strapi.db.dialect.client === 'postgres') await trx.raw('SELECT id FROM branchify_videos WHERE id = ? FOR UPDATE', [video.id]);
          const existing = (await tracks().findMany({ where: { video_id: video.id }, select: ['id', 'language'] })) as Array<{ language: string }>;
          if (existing.some((t) => t.language === input.language)) throw taken();
          if (existing.length >= CAPTION_LIMITS.maxTracksPerVideo)
            throw validationError({ file: [messageTemplates.captionTracksFull(CAPTION_LIMITS.maxTracksPerVideo)] });
          const row = await tracks().create({
            data: {
              owner_id: video.owner_id,
              video_id: video.id,
              key: crypto.randomBytes(24).toString('base64url'),
              language: input.language,
              label: input.label,
              content: file.vtt,
              size: Buffer.byteLength(file.vtt),
              cues: file.cues,
            },
          });
          const { content: _content, ...summary } = row;
          return summary;
        });
      } catch (error) {
        if (!(error instanceof AppError) && isUniqueViolation(error)) throw taken();
        throw error;
      }
    },

    async remove(id: number): Promise<void> {
      await tracks().delete({ where: { id } });
    },

    /** A track's file by its public key (null: no such track). */
    async fileByKey(key: string): Promise<{ content: string; key: string } | null> {
      return tracks().findOne({ where: { key }, select: ['id', 'key', 'content'] });
    },
  };
};
