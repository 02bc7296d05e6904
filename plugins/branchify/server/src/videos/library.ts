import { messageTemplates } from '@branchify/shared';
import type { IncomingFile } from '../customization/upload-store';
import { conflict } from '../http/errors';
import { isForeignKeyViolation } from '../utils/db-errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { VideoInput } from './validators';
import type { UserRecord } from '../content-types/users-permissions';
import type { VideoRow } from '../content-types/video';

/** What a creator does to their video library, one use-case per function. */
export default ({ strapi }: { strapi: Strapi }) => {
  const videos = () => getService(strapi, 'videos');

  return {
    /** The plan decides which video sources may be added. */
    async add(user: UserRecord, input: VideoInput): Promise<VideoRow> {
      await getService(strapi, 'plan-limits').assert(user, { kind: 'video_source', provider: input.source.provider });
      const video = await videos().create(user.id, input);
      strapi.log.info(`[videos] user ${user.id} added ${video.provider} video ${video.id}`);
      return video;
    },

    /** Players show the new title at once. */
    async rename(video: VideoRow, title: string): Promise<VideoRow> {
      const updated = await videos().rename(video.id, title);
      getService(strapi, 'player-payload').invalidateAll();
      return updated;
    },

    /**
     * A poster frame the owner's browser drew from the video: stored as one of their images and
     * recorded as the video's thumbnail; a poster stored before is deleted. Players show it at once.
     */
    async setPoster(video: VideoRow, file: IncomingFile): Promise<VideoRow> {
      const images = getService(strapi, 'creator-images');
      const image = await images.store(video.owner_id, file);
      let updated: VideoRow;
      try {
        updated = await videos().setThumbnail(video.id, image.url);
      } catch (error) {
        await images.release(video.owner_id, image.url);
        throw error;
      }
      if (video.thumbnail && video.thumbnail !== image.url) await images.release(video.owner_id, video.thumbnail);
      getService(strapi, 'player-payload').invalidateAll();
      strapi.log.info(`[videos] user ${video.owner_id} stored a poster for video ${video.id} (${image.size} bytes)`);
      return updated;
    },

    /** A video a funnel uses is refused (409) with the funnels' names, so no funnel points at nothing. */
    async remove(video: VideoRow, userId: number): Promise<void> {
      const refuseWhileUsed = async () => {
        const usedBy = await getService(strapi, 'funnels').titlesUsing(video.id);
        if (usedBy.length) throw conflict(messageTemplates.videoInUseBy(usedBy));
      };
      await refuseWhileUsed();
      try {
        await videos().remove(video.id);
      } catch (error) {
        // A funnel saved with it since the check: the database kept the video.
        if (!isForeignKeyViolation(error)) throw error;
        await refuseWhileUsed();
        throw error;
      }
      // Its stored poster goes with it (a thumbnail URL that is not one of the owner's images stays).
      if (video.thumbnail) await getService(strapi, 'creator-images').release(video.owner_id, video.thumbnail);
      strapi.log.info(`[videos] user ${userId} deleted video ${video.id}`);
    },
  };
};
