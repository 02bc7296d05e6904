import { MESSAGES, type AnalyticsReportResource } from '@branchify/shared';
import type { z } from 'zod';
import { notFound, validationError } from '../http/errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { analyticsFilterSchema } from './validators';
import type { FunnelRow } from '../content-types/funnel';
import type { UserRecord } from '../content-types/users-permissions';

type AnalyticsFilter = z.infer<typeof analyticsFilterSchema>;

const DAY_MS = 86_400_000;

/** The analytics report of a funnel, for its owner or an admin. */
export default ({ strapi }: { strapi: Strapi }) => ({
  /**
   * Another tenant's funnel is not found. The range defaults to the 30 days up to today and may
   * not be longer than a year; durations and titles come from the owner's library.
   */
  async report(user: UserRecord, funnelId: number, filter: AnalyticsFilter): Promise<{ funnel: FunnelRow; data: AnalyticsReportResource }> {
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
    return { funnel, data };
  },
});
