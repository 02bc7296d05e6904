import type { Knex } from 'knex';
import { getService } from '../utils/services';
import { rawRows, type Strapi } from '../utils/strapi';
import { rootEditorId } from './map';
import { MARKS, ROLLUPS, rebuildFunnel } from './rollups';
import { inTransaction, INTERACTIONS, isPostgres, VIEWS } from './store';

/** The columns a probe for a funnel's rows names. */
interface Probe {
  id: number;
  funnel_id: number;
}

/** Funnels with stored views or interactions and no counters at all (all of them, or the one given: two indexed probes). */
const uncounted = async (knex: Knex | Knex.Transaction, funnelId?: number): Promise<number[]> => {
  if (funnelId !== undefined) {
    if (await knex<Probe>(ROLLUPS).where({ funnel_id: funnelId }).first('id')) return [];
    const stored =
      (await knex<Probe>(VIEWS).where({ funnel_id: funnelId }).first('id')) ?? (await knex<Probe>(INTERACTIONS).where({ funnel_id: funnelId }).first('id'));
    return stored ? [funnelId] : [];
  }
  const result: unknown = await knex.raw(
    `SELECT funnel_id FROM (SELECT DISTINCT funnel_id FROM ${VIEWS} UNION SELECT DISTINCT funnel_id FROM ${INTERACTIONS}) f
     WHERE NOT EXISTS (SELECT 1 FROM ${ROLLUPS} r WHERE r.funnel_id = f.funnel_id)`,
  );
  return rawRows<{ funnel_id: number }>(result).map((r) => Number(r.funnel_id));
};

/** Building the counters funnels lack, and removing funnels' analytics with them. */
export const analyticsMaintenance = (strapi: Strapi) => {
  /** Each video's library duration by editor id, and the root, as the counters need them. */
  const countingContext = async (funnelId: number) => {
    const funnel = await getService(strapi, 'funnels').findById(funnelId);
    const videos = funnel?.videos ?? [];
    const library = funnel
      ? await getService(strapi, 'videos').findMany(
          funnel.owner_id,
          videos.map((v) => v.id),
        )
      : [];
    const durations = new Map(
      videos.map((v) => {
        const video = library.find((l) => l.id === v.id);
        return [v.editor_id, video?.duration === null || video?.duration === undefined ? null : Number(video.duration)] as const;
      }),
    );
    return { id: funnelId, root: rootEditorId(videos) ?? '', durations };
  };

  return {
    /**
     * Builds the counters of funnels whose rows have none (rows stored before counters existed, or
     * loaded in bulk). Writers wait while it runs (the counters table is locked), so no event is
     * counted twice or missed; another process finds the work done.
     */
    ensureCounters: async (funnelId?: number): Promise<number[]> => {
      const ids = await uncounted(strapi.db.connection, funnelId);
      const rebuilt: number[] = [];
      for (const id of ids) {
        const funnel = await countingContext(id);
        const started = Date.now();
        const done = await inTransaction(strapi, async (trx) => {
          if (isPostgres(strapi)) await trx.raw(`LOCK TABLE ${ROLLUPS} IN SHARE ROW EXCLUSIVE MODE`);
          if (!(await uncounted(trx, id)).length) return false;
          await rebuildFunnel(trx, isPostgres(strapi), funnel);
          return true;
        });
        if (done) {
          rebuilt.push(id);
          strapi.log.info(`[branchify] analytics counters built for funnel ${id} in ${Date.now() - started} ms`);
        }
      }
      return rebuilt;
    },

    /** Removes the funnels' views, interactions and counters (in the caller's transaction). */
    deleteForFunnels: async (trx: Knex.Transaction, funnelIds: readonly number[]): Promise<void> => {
      if (!funnelIds.length) return;
      for (const table of [INTERACTIONS, VIEWS, ROLLUPS, MARKS])
        await trx(table)
          .whereIn('funnel_id', [...funnelIds])
          .delete();
    },
  };
};
