import type { WebhookEventType } from '@branchify/shared';
import type { Knex } from 'knex';
import { MARKS, markId, newMarks } from '../analytics/rollups';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { ANONYMOUS_EVENTS_PER_ADDRESS, CLICKS_ANNOUNCED_PER_VIEW } from './bounds';

/**
 * Bounds on the webhook events anonymous viewers trigger (a view started, a funnel completed, a
 * branch clicked): whoever plays a public funnel can send these, so what one view and one client
 * address can queue is capped (the figures: webhooks/bounds.ts). Past a bound the event is still
 * stored and counted; only its delivery is not queued.
 */

/**
 * Per-view caps by event type. The others are bounded by what they are: `funnel.viewed` once per
 * view, `funnel.completed` once per view and ending video.
 */
const PER_VIEW: Partial<Record<WebhookEventType, number>> = { 'branch.clicked': CLICKS_ANNOUNCED_PER_VIEW };

/** Who triggered the events: the funnel, and the client address as the proxy policy resolves it. */
export interface AnonymousSource {
  funnelId: number;
  address: string;
}

/** An event to bound: the view it happened in. */
interface InView {
  view?: string;
}

/** The name of a view's `n`th announcement slot of a type (a mark: unique per view). */
const slot = (type: WebhookEventType, n: number): string => `webhook:${type}:${n}`;

/**
 * The events whose view still has a free slot of this type, each taking one. Slots are marks
 * (analytics/rollups.ts), unique per view: two processes never hand out the same slot, so a view
 * never announces more than its cap (a retry may use a slot again: its delivery is queued once).
 * Two queries per request, whatever the batch holds.
 */
const withinViewCap = async <E extends InView>(knex: Knex, type: WebhookEventType, funnelId: number, events: E[]): Promise<E[]> => {
  const cap = PER_VIEW[type];
  if (cap === undefined) return events;
  const byView = new Map<string, E[]>();
  for (const e of events) if (e.view) byView.set(e.view, [...(byView.get(e.view) ?? []), e]);
  if (!byView.size) return [];
  const slots = Array.from({ length: cap }, (_, i) => slot(type, i + 1));
  const taken = new Set<string>();
  const views = [...byView.keys()];
  for (let i = 0; i < views.length; i += 100) {
    const rows: Array<{ view_key: string; mark: string }> = await knex(MARKS)
      .whereIn('view_key', views.slice(i, i + 100))
      .whereIn('mark', slots)
      .select('view_key', 'mark');
    for (const r of rows) taken.add(markId(r.view_key, r.mark));
  }
  const claims: Array<{ event: E; view: string; mark: string }> = [];
  for (const [view, list] of byView) {
    const free = slots.filter((s) => !taken.has(markId(view, s)));
    list.slice(0, free.length).forEach((event, i) => claims.push({ event, view, mark: free[i]! }));
  }
  const won = await newMarks(
    knex,
    claims.map((c) => ({ funnel_id: funnelId, view_key: c.view, mark: c.mark })),
  );
  return claims.filter((c) => won.has(markId(c.view, c.mark))).map((c) => c.event);
};

/** The first events the address's budget still covers (shared across processes by the rate-limit service). */
const withinAddressBudget = async <E>(strapi: Strapi, address: string, events: E[]): Promise<E[]> => {
  if (!events.length) return events;
  const granted = await getService(strapi, 'rateLimit').spend(`webhooks:ip:${address}`, events.length, ANONYMOUS_EVENTS_PER_ADDRESS);
  return events.slice(0, granted);
};

/** The events an anonymous source may still have announced: its view's cap first, then its address's budget. */
export const anonymousBound =
  (strapi: Strapi) =>
  async <E extends InView>(type: WebhookEventType, events: E[], from: AnonymousSource): Promise<E[]> =>
    withinAddressBudget(strapi, from.address, await withinViewCap(strapi.db.connection, type, from.funnelId, events));
