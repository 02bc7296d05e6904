import crypto from 'node:crypto';
import type { FunnelDocument, FunnelSettings } from '@branchify/shared';
import type { ListQuery } from '../http/paging';
import { getService } from '../utils/services';
import { durableTransaction } from '../utils/durable-transaction';
import { query, UID, type Strapi } from '../utils/strapi';
import type { FunnelRow } from '../content-types/funnel';

const LINKS = 'branchify_funnel_videos';

/** 24 characters of base62: the funnel's public, unguessable reference. */
const newIdentifier = (): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.randomBytes(48);
  let out = '';
  for (const byte of bytes) {
    if (byte >= 248) continue; // 248 = 4 * 62: keeps the distribution uniform
    out += alphabet[byte % 62];
    if (out.length === 24) break;
  }
  return out.length === 24 ? out : newIdentifier();
};

type FunnelInput = {
  title: string;
  description: string;
  settings: FunnelSettings;
  videos?: FunnelDocument['videos'];
  variables?: FunnelDocument['variables'];
};

const funnelsOf = (strapi: Strapi) => query(strapi, UID.funnel);
const db = (strapi: Strapi) => strapi.db.connection;

const writeLinks = async (strapi: Strapi, funnelId: number, ownerId: number, videos: FunnelDocument['videos']) => {
  const ids = [...new Set(videos.map((v) => v.id))];
  await durableTransaction(strapi, async ({ trx }) => {
    await trx(LINKS).where({ funnel_id: funnelId }).delete();
    if (ids.length) {
      const now = new Date();
      await trx(LINKS).insert(ids.map((video_id) => ({ funnel_id: funnelId, video_id, owner_id: ownerId, created_at: now, updated_at: now })));
    }
  });
};

const list = async (strapi: Strapi, ownerId: number, q: ListQuery): Promise<{ rows: FunnelRow[]; total: number }> => {
  const where = { owner_id: ownerId, ...(q.search ? { title: { $containsi: q.search } } : {}) };
  const [rows, total] = await Promise.all([
    funnelsOf(strapi).findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], limit: q.perPage, offset: q.offset }),
    funnelsOf(strapi).count({ where }),
  ]);
  return { rows, total };
};

const create = async (strapi: Strapi, ownerId: number, input: FunnelInput): Promise<FunnelRow> => {
  const videos = input.videos ?? [];
  const row: FunnelRow = await funnelsOf(strapi).create({
    data: {
      owner_id: ownerId,
      identifier: newIdentifier(),
      title: input.title,
      description: input.description,
      settings: input.settings,
      videos,
      variables: input.variables ?? [],
      version: 1,
    },
  });
  if (videos.length) await writeLinks(strapi, row.id, ownerId, videos);
  return row;
};

/** The funnel and its links in one transaction: a save is stored whole or not at all. */
const saveDocument = async (strapi: Strapi, funnel: FunnelRow, doc: FunnelDocument): Promise<FunnelRow> =>
  durableTransaction(strapi, async () => {
    const row: FunnelRow = await funnelsOf(strapi).update({
      where: { id: funnel.id },
      data: {
        title: doc.title,
        description: doc.description,
        settings: doc.settings,
        variables: doc.variables,
        videos: doc.videos,
        version: (funnel.version ?? 1) + 1,
      },
    });
    await writeLinks(strapi, funnel.id, funnel.owner_id, doc.videos);
    return row;
  });

/** Removes the funnel with its links and its analytics. */
const remove = async (strapi: Strapi, funnel: FunnelRow): Promise<void> => {
  await durableTransaction(strapi, async ({ trx }) => {
    await trx(LINKS).where({ funnel_id: funnel.id }).delete();
    await getService(strapi, 'analytics').deleteForFunnels(trx, [funnel.id]);
    // Through the query layer (in this transaction): every process's player cache hears of it.
    await funnelsOf(strapi).delete({ where: { id: funnel.id } });
  });
};

/** Removes every funnel of an owner with its links and analytics (one transaction). */
const removeAllOf = async (strapi: Strapi, ownerId: number): Promise<void> => {
  await durableTransaction(strapi, async ({ trx }) => {
    const ids = (await trx('branchify_funnels').where({ owner_id: ownerId }).select('id')).map((r: { id: number }) => r.id);
    await getService(strapi, 'analytics').deleteForFunnels(trx, ids);
    await trx(LINKS).where({ owner_id: ownerId }).delete();
    await trx('branchify_funnels').where({ owner_id: ownerId }).delete();
  });
};

/** How many funnels use each of the given videos (a video's total_funnels). */
const countsByVideo = async (strapi: Strapi, ids: readonly number[]): Promise<Map<number, number>> => {
  const counts = new Map<number, number>();
  if (!ids.length) return counts;
  const rows: Array<{ video_id: number; n: number | string }> = await db(strapi)(LINKS)
    .select('video_id')
    .count({ n: '*' })
    .whereIn('video_id', ids)
    .groupBy('video_id');
  for (const row of rows) counts.set(Number(row.video_id), Number(row.n));
  return counts;
};

/** Titles of the funnels that use a video (to explain why it cannot be deleted). */
const titlesUsing = async (strapi: Strapi, id: number): Promise<string[]> => {
  const rows: Array<{ title: string }> = await db(strapi)(LINKS)
    .join('branchify_funnels', 'branchify_funnels.id', `${LINKS}.funnel_id`)
    .where(`${LINKS}.video_id`, id)
    .orderBy('branchify_funnels.title')
    .limit(5)
    .select('branchify_funnels.title');
  return rows.map((r) => r.title);
};

/** Funnels: owner-scoped persistence, and the video links kept in step with every save. */
export default ({ strapi }: { strapi: Strapi }) => {
  const funnels = () => funnelsOf(strapi);

  return {
    list(ownerId: number, q: ListQuery): Promise<{ rows: FunnelRow[]; total: number }> {
      return list(strapi, ownerId, q);
    },

    async count(ownerId: number): Promise<number> {
      return funnels().count({ where: { owner_id: ownerId } });
    },

    async find(ownerId: number, id: number): Promise<FunnelRow | null> {
      return funnels().findOne({ where: { id, owner_id: ownerId } });
    },

    async findById(id: number): Promise<FunnelRow | null> {
      return funnels().findOne({ where: { id } });
    },

    async findByIdentifier(identifier: string): Promise<FunnelRow | null> {
      return funnels().findOne({ where: { identifier } });
    },

    /**
     * Creates a funnel only if `allow(count after)` passes, counting and inserting as one step per
     * owner: on PostgreSQL the owner's user row is locked for the transaction (before anything else
     * it writes, which would share-lock that row); SQLite has one writer. `input` may be made once
     * the count has passed, in the same transaction (an import adds the videos it needs then).
     */
    async createCounted(ownerId: number, input: FunnelInput | (() => Promise<FunnelInput>), allow: (countAfter: number) => Promise<void>): Promise<FunnelRow> {
      return durableTransaction(strapi, async ({ trx }) => {
        if (strapi.db.dialect.client === 'postgres') await trx.raw('SELECT id FROM up_users WHERE id = ? FOR UPDATE', [ownerId]);
        await allow((await funnels().count({ where: { owner_id: ownerId } })) + 1);
        return this.create(ownerId, typeof input === 'function' ? await input() : input);
      });
    },

    create(ownerId: number, input: FunnelInput): Promise<FunnelRow> {
      return create(strapi, ownerId, input);
    },

    async updateMeta(funnel: FunnelRow, input: { title: string; description: string; settings: FunnelSettings }): Promise<FunnelRow> {
      return funnels().update({
        where: { id: funnel.id },
        data: { title: input.title, description: input.description, settings: input.settings, version: (funnel.version ?? 1) + 1 },
      });
    },

    /** The funnel and its links in one transaction: a save is stored whole or not at all. */
    saveDocument(funnel: FunnelRow, doc: FunnelDocument): Promise<FunnelRow> {
      return saveDocument(strapi, funnel, doc);
    },

    /** Removes the funnel with its links and its analytics. */
    remove(funnel: FunnelRow): Promise<void> {
      return remove(strapi, funnel);
    },

    /** Removes every funnel of an owner with its links and analytics (one transaction). */
    removeAllOf(ownerId: number): Promise<void> {
      return removeAllOf(strapi, ownerId);
    },

    /** How many funnels use each of the given videos (a video's total_funnels). */
    countsByVideo(ids: readonly number[]): Promise<Map<number, number>> {
      return countsByVideo(strapi, ids);
    },

    /** Titles of the funnels that use a video (to explain why it cannot be deleted). */
    titlesUsing(id: number): Promise<string[]> {
      return titlesUsing(strapi, id);
    },
  };
};
