import crypto from 'node:crypto';
import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { notFound, validationError, type FieldErrors } from '../http/errors';
import { routeId } from '../http/params';
import { created, ok } from '../http/respond';
import { parse } from '../http/validate';
import type { UserRecord } from '../users/serialize';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { PlayerEntry } from '../funnels/player-payload';
import { reportCsv } from './csv';
import type { ViewContext } from './service';
import { analyticsFilterSchema, interactionBatchSchema, interactionSchema, startViewSchema, updateViewSchema } from './validators';

const DAY_MS = 86_400_000;

/** The root and library durations a view's counters need, from the cached player payload. */
const viewContext = (entry: PlayerEntry): ViewContext => ({
  root: entry.payload.root_editor_id,
  durations: new Map(entry.payload.videos.map((v) => [v.editor_id, v.duration])),
});

/**
 * Views and interactions (public, by the funnel's reference, as the player sends them) and the
 * analytics report (the funnel's owner, or an admin).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const analytics = () => getService(strapi, 'analytics');
  const playable = (ctx: Context) => getService(strapi, 'player-payload').get(String(ctx.params.reference ?? ''));

  const webhooks = () => getService(strapi, 'webhooks');
  const funnelOf = (entry: PlayerEntry) => ({ id: entry.funnelId, identifier: entry.payload.identifier, title: entry.payload.title });
  /** A viewer's pseudonym for receivers (the token itself lets its holder move the view on). */
  const viewerId = (token: string) => crypto.createHash('sha256').update(token).digest('hex').slice(0, 24);

  const updateView = async (ctx: Context, body: unknown) => {
    const entry = await playable(ctx);
    const input = parse(updateViewSchema, body);
    if (!entry.editorIds.has(input.editor_id)) throw validationError({ editor_id: [MESSAGES.eventVideoNotInFunnel] });
    const progress = await analytics().updateView(entry.funnelId, input, viewContext(entry));
    if (!progress) throw notFound(MESSAGES.viewNotFound);
    // The funnel is completed when a view first reaches 90% of a video that leads nowhere else.
    const duration = progress.duration ?? entry.payload.videos.find((v) => v.editor_id === input.editor_id)?.duration ?? null;
    if (entry.endings.has(input.editor_id) && duration && progress.before < 0.9 * duration && progress.reached >= 0.9 * duration) {
      await webhooks().emit('funnel.completed', [
        {
          source: `${input.view_id}:${input.editor_id}`,
          data: {
            funnel: funnelOf(entry),
            view_id: input.view_id,
            viewer_id: viewerId(input.viewer_token),
            editor_id: input.editor_id,
            reached: progress.reached,
            duration,
          },
        },
      ]);
    }
    ok(ctx, { view_id: input.view_id });
  };

  /** The report for the funnel's owner (or an admin); another tenant's funnel is not found. */
  const reportOf = async (ctx: Context, input: unknown) => {
    const user: UserRecord = ctx.state.branchifyUser;
    const funnels = getService(strapi, 'funnels');
    const funnel = user.is_admin ? await funnels.findById(routeId(ctx)) : await funnels.find(user.id, routeId(ctx));
    if (!funnel) throw notFound();
    const filter = parse(analyticsFilterSchema, input);
    const to = filter.to ? new Date(`${filter.to}T23:59:59.999Z`) : new Date();
    const from = filter.from
      ? new Date(`${filter.from}T00:00:00.000Z`)
      : new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate()) - 29 * DAY_MS);
    if (to.getTime() - from.getTime() > 366 * DAY_MS) throw validationError({ from: ['The date range must not be longer than a year.'] });
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
    const data = await analytics().report(funnel, { durations, titles }, { from, to });
    return { funnel, data };
  };
  const report = async (ctx: Context, input: unknown) => (await reportOf(ctx, input)).data;

  return {
    /**
     * Starts a view; answers once it is stored. A body with `view_id` is an update instead, for
     * `navigator.sendBeacon`, which can only POST (the last position on page hide).
     */
    async startView(ctx: Context) {
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      if (typeof body === 'object' && body && 'view_id' in body) return updateView(ctx, body);
      const entry = await playable(ctx);
      const input = parse(startViewSchema, body);
      const viewerToken = input.viewer_token ?? analytics().newViewerToken();
      // The returning viewer's last position, read before this view is added.
      const last = entry.resume && input.viewer_token ? await analytics().lastViewState(entry.funnelId, input.viewer_token) : null;
      await analytics().startView(entry.funnelId, input.event_id, viewerToken, viewContext(entry));
      await webhooks().emit('funnel.viewed', [
        { source: input.event_id, data: { funnel: funnelOf(entry), view_id: input.event_id, viewer_id: viewerId(viewerToken) } },
      ]);
      created(ctx, { view_id: input.event_id, viewer_token: viewerToken, last_view_state: last && entry.editorIds.has(last.editor_id) ? last : null });
    },

    async updateView(ctx: Context) {
      return updateView(ctx, ctx.request.body);
    },

    async interactions(ctx: Context) {
      const entry = await playable(ctx);
      // One interaction (the spec's payload), or a batch of them.
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      const batched = typeof body === 'object' && 'events' in body;
      const events = batched ? parse(interactionBatchSchema, body).events : [parse(interactionSchema, body)];
      const errors: FieldErrors = {};
      events.forEach((e, i) => {
        if (!entry.editorIds.has(e.video_id)) errors[batched ? `events.${i}.video_id` : 'video_id'] = [MESSAGES.eventVideoNotInFunnel];
      });
      if (Object.keys(errors).length) throw validationError(errors);
      await analytics().recordInteractions(
        entry.funnelId,
        events.map((e) => ({
          event_id: e.event_id,
          view_id: e.view_id ?? null,
          video_id: e.video_id,
          node_id: e.node_id,
          connected_node: e.connected_node ?? null,
          type: e.type,
          player_time: e.player_time,
        })),
      );
      // A branch the viewer clicked (an inaction default taken is no click).
      const clicks = events.filter((e) => e.type === 'branch');
      await webhooks().emit(
        'branch.clicked',
        clicks.map((e) => ({
          source: e.event_id,
          data: {
            funnel: funnelOf(entry),
            event_id: e.event_id,
            view_id: e.view_id ?? null,
            video_id: e.video_id,
            node_id: e.node_id,
            connected_node: e.connected_node ?? null,
            player_time: e.player_time,
          },
        })),
      );
      ctx.status = 202;
      ctx.body = { success: true, data: { accepted: events.length } };
    },

    async report(ctx: Context) {
      ok(ctx, await report(ctx, ctx.request.body));
    },

    /** The same figures as a CSV download (`?from=&to=`). */
    async reportCsv(ctx: Context) {
      const { funnel, data } = await reportOf(ctx, ctx.query);
      const name = `funnel-${funnel.identifier}-analytics-${data.range.from}-to-${data.range.to}.csv`;
      ctx.set('Content-Type', 'text/csv; charset=utf-8');
      ctx.set('Content-Disposition', `attachment; filename="${name}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = reportCsv(data);
    },
  };
};
