import { defaultVideoTitle } from '@branchify/shared';
import type { ListQuery } from '../http/paging';
import { query, UID, type Strapi } from '../utils/strapi';
import type { VideoInput } from './validators';
import type { VideoRow } from '../content-types/video';
import { durableTransaction } from '../utils/durable-transaction';

/** The video library: every query is scoped to its owner, so another tenant's video is simply not found. */
export default ({ strapi }: { strapi: Strapi }) => {
  const videos = () => query(strapi, UID.video);

  return {
    async list(ownerId: number, q: ListQuery): Promise<{ rows: VideoRow[]; total: number }> {
      const where = { owner_id: ownerId, ...(q.search ? { title: { $containsi: q.search } } : {}) };
      const [rows, total] = await Promise.all([
        videos().findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], limit: q.perPage, offset: q.offset }),
        videos().count({ where }),
      ]);
      return { rows, total };
    },

    async find(ownerId: number, id: number): Promise<VideoRow | null> {
      return videos().findOne({ where: { id, owner_id: ownerId } });
    },

    /** The owner's videos among `ids` (to check a funnel only uses its owner's library). */
    async findMany(ownerId: number, ids: readonly number[]): Promise<VideoRow[]> {
      if (!ids.length) return [];
      return videos().findMany({ where: { owner_id: ownerId, id: { $in: [...new Set(ids)] } } });
    },

    async create(ownerId: number, input: VideoInput): Promise<VideoRow> {
      const { source } = input;
      return videos().create({
        data: {
          owner_id: ownerId,
          title: input.title ?? defaultVideoTitle(source),
          size: 0,
          thumbnail: input.thumbnail,
          duration: input.duration,
          provider: source.provider,
          external_id: source.external_id,
          embed_url: source.embed_url,
          source: source.source,
          source_url: source.source_url,
        },
      });
    },

    async rename(id: number, title: string): Promise<VideoRow> {
      return videos().update({ where: { id }, data: { title } });
    },

    async setThumbnail(id: number, thumbnail: string | null): Promise<VideoRow> {
      return videos().update({ where: { id }, data: { thumbnail } });
    },

    async remove(id: number): Promise<void> {
      await videos().delete({ where: { id } });
    },

    /** Removes an owner's whole library (their funnels go first: they use these videos). */
    async removeAllOf(ownerId: number): Promise<void> {
      await durableTransaction(strapi, ({ trx }) => trx('branchify_videos').where({ owner_id: ownerId }).delete());
    },
  };
};
