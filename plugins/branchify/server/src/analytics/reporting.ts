import { MESSAGES, valuesFrom, type AnalyticsReportResource, type VariableValues } from '@branchify/shared';
import type { z } from 'zod';
import { notFound, validationError } from '../http/errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { analyticsFilterSchema } from './validators';
import type { FunnelRow } from '../content-types/funnel';
import type { UserRecord } from '../content-types/users-permissions';

type AnalyticsFilter = z.infer<typeof analyticsFilterSchema>;

const DAY_MS = 86_400_000;

/** The CSV lists at most this many views (the latest of the range). */
const CSV_VIEWS_MAX = 10_000;

/** A view as the CSV lists it: when, where it ended, how long it was watched, the viewer's variables. */
export interface ViewRecord {
  view_id: string;
  started_at: string;
  editor_id: string | null;
  watch_time: number;
  variables: VariableValues;
}

const asDate = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string | number));

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

  /** The range's views, latest first (at most CSV_VIEWS_MAX), each with the variables it last reported, read as the funnel declares them now. */
  async views(funnel: FunnelRow, range: { from: Date; to: Date }): Promise<ViewRecord[]> {
    const rows: Array<{ event_id: string; created_at: unknown; editor_id: string | null; watch_time: unknown; variables: unknown }> = await strapi.db
      .connection('branchify_funnel_views')
      .where({ funnel_id: funnel.id })
      .whereBetween('created_at', [range.from, range.to])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(CSV_VIEWS_MAX)
      .select('event_id', 'created_at', 'editor_id', 'watch_time', 'variables');
    const declared = funnel.variables ?? [];
    return rows.map((r) => ({
      view_id: r.event_id,
      started_at: asDate(r.created_at).toISOString(),
      editor_id: r.editor_id ?? null,
      watch_time: Number(r.watch_time ?? 0),
      variables: valuesFrom(declared, typeof r.variables === 'string' ? (JSON.parse(r.variables) as unknown) : r.variables),
    }));
  },
});
