import type { Knex } from 'knex';
import { MARKS, ROLLUPS } from './rollups';
import { INTERACTIONS, VIEWS } from './store';

/** Removes the funnels' views, interactions and counters (in the caller's transaction). */
export const deleteForFunnels = async (trx: Knex.Transaction, funnelIds: readonly number[]): Promise<void> => {
  if (!funnelIds.length) return;
  for (const table of [INTERACTIONS, VIEWS, ROLLUPS, MARKS])
    await trx(table)
      .whereIn('funnel_id', [...funnelIds])
      .delete();
};
