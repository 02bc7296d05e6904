import { MESSAGES, valuesFrom, type AnalyticsReportResource } from '@branchify/shared';
import type { z } from 'zod';
import { notFound, validationError } from '../http/errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { analyticsFilterSchema } from './validators';
import type { FunnelRow } from '../content-types/funnel';
import type { UserRecord } from '../content-types/users-permissions';
import type { ViewRecord } from './csv';
import { VIEWS, asDate } from './store';

type AnalyticsFilter = z.infer<typeof analyticsFilterSchema>;

const DAY_MS = 86_400_000;

/** Views read per query for the CSV: memory per download stays bounded whatever the range holds. */
const VIEW_PAGE_ROWS = 1_000;

/** The columns of a view row the CSV reads. */
interface StoredView {
  id: number;
  event_id: string;
  created_at: unknown;
  editor_id: string | null;
  watch_time: unknown;
  variables: unknown;
}

/** The analytics report of a funnel, for its owner or an admin. */
export default ({ strapi }: { strapi: Strapi }) => ({
  /**
   * Another tenant's funnel is not found. The range defaults to the 30 days up to today and may
   * not be longer than a year; durations and titles come from the owner's library.
   */
  async report(
    user: UserRecord,
    funnelId: number,
    filter: AnalyticsFilter,
  ): Promise<{ funnel: FunnelRow; data: AnalyticsReportResource; range: { from: Date; to: Date } }> {
    const funnels = getService(strapi, 'funnels');
    const funnel = user.is_admin ? await funnels.findById(funnelId) : await funnels.find(user.id, funnelId);
    if (!funnel) throw notFound();
    const to = filter.to ? new Date(`${filter.to}T23:59:59.999Z`) : new Date();
    const from = filter.from
      ? new Date(`${filter.from}T00:00:00.000Z`)
      : new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate()) - 29 * DAY_MS);
    if (to.getTime() - from.getTime() > 366 * DAY_MS) throw validationError({ from: [MESSAGES.analyticsRangeTooLong] });
    const library = await getService(strapi, 'videos').findMany(
      funnel.owner_id,
      (funnel.videos ?? []).map((v) => v.id),
    );
    const durations = new Map<string, number | null>();
    const titles = new Map<string, string>();
    for (const v of funnel.videos ?? []) {
      const video = library.find((l) => l.id === v.id);
      durations.set(v.editor_id, video?.duration === null || video?.duration === undefined ? null : Number(video.duration));
      titles.set(v.editor_id, video?.title ?? v.editor_id);
    }
    const data = await getService(strapi, 'analytics').report(funnel, { durations, titles }, { from, to });
    return { funnel, data, range: { from, to } };
  },

  /**
   * The range's views, latest first, in pages of VIEW_PAGE_ROWS, each with the variables it last
   * reported, read as the funnel declares them now. Each page is one query after the last row of
   * the one before (keyset on created_at, id; the row's stored time, so no rounding skips a row).
   */
  async *viewPages(funnel: FunnelRow, range: { from: Date; to: Date }): AsyncGenerator<ViewRecord[], void, undefined> {
    const declared = funnel.variables ?? [];
    let after: number | null = null;
    for (;;) {
      const query = strapi.db
        .connection(VIEWS)
        .where({ funnel_id: funnel.id })
        .where('created_at', '>=', range.from)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(VIEW_PAGE_ROWS)
        .select('id', 'event_id', 'created_at', 'editor_id', 'watch_time', 'variables');
      if (after === null) void query.where('created_at', '<=', range.to);
      else {
        // The last row's time is the only upper bound, so the index range starts at the page.
        const lastId = after;
        const at = () => strapi.db.connection(VIEWS).select('created_at').where({ id: lastId });
        void query.where('created_at', '<=', at()).andWhere((q) => {
          void q.where('created_at', '<', at()).orWhere('id', '<', lastId);
        });
      }
      const rows = (await query) as StoredView[];
      if (rows.length > 0)
        yield rows.map((r) => ({
          view_id: r.event_id,
          started_at: asDate(r.created_at).toISOString(),
          editor_id: r.editor_id ?? null,
          watch_time: Number(r.watch_time ?? 0),
          variables: valuesFrom(declared, typeof r.variables === 'string' ? (JSON.parse(r.variables) as unknown) : r.variables),
        }));
      if (rows.length < VIEW_PAGE_ROWS) return;
      after = Number(rows[rows.length - 1]!.id);
    }
  },
});
