import crypto from 'node:crypto';
import { MESSAGES } from '@branchify/shared';
import type { z } from 'zod';
import { notFound, validationError, type FieldErrors } from '../http/errors';
import type { PlayerEntry } from '../funnels/player-payload';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { ViewContext } from './service';
import type { interactionSchema, startViewSchema, updateViewSchema } from './validators';

export type StartView = z.infer<typeof startViewSchema>;
export type ViewUpdate = z.infer<typeof updateViewSchema>;
export type Interaction = z.infer<typeof interactionSchema>;

export interface StartedView {
  view_id: string;
  viewer_token: string;
  last_view_state: { last_watch_time: number; editor_id: string } | null;
}

/** The root and library durations a view's counters need, from the cached player payload. */
const viewContext = (entry: PlayerEntry): ViewContext => ({
  root: entry.payload.root_editor_id,
  durations: new Map(entry.payload.videos.map((v) => [v.editor_id, v.duration])),
});

const funnelOf = (entry: PlayerEntry) => ({ id: entry.funnelId, identifier: entry.payload.identifier, title: entry.payload.title });
/** A viewer's pseudonym for receivers (the token itself lets its holder move the view on). */
const viewerId = (token: string) => crypto.createHash('sha256').update(token).digest('hex').slice(0, 24);

/** What the player reports of a public funnel: views and interactions, stored and announced to webhooks. */
/** Where in the funnel an interaction happened, as stored and as announced to webhook receivers. */
const where = (e: Interaction) => ({
  view_id: e.view_id ?? null,
  video_id: e.video_id,
  node_id: e.node_id,
  connected_node: e.connected_node ?? null,
  player_time: e.player_time,
});

export default ({ strapi }: { strapi: Strapi }) => {
  const analytics = () => getService(strapi, 'analytics');
  const webhooks = () => getService(strapi, 'webhooks');

  return {
    /** Stores a view and answers the returning viewer's last position (read before this view is added). */
    async startView(entry: PlayerEntry, input: StartView): Promise<StartedView> {
      const viewerToken = input.viewer_token ?? analytics().newViewerToken();
      const last = entry.resume && input.viewer_token ? await analytics().lastViewState(entry.funnelId, input.viewer_token) : null;
      await analytics().startView(entry.funnelId, input.event_id, viewerToken, viewContext(entry));
      await webhooks().emit('funnel.viewed', [
        { source: input.event_id, data: { funnel: funnelOf(entry), view_id: input.event_id, viewer_id: viewerId(viewerToken) } },
      ]);
      return { view_id: input.event_id, viewer_token: viewerToken, last_view_state: last && entry.editorIds.has(last.editor_id) ? last : null };
    },

    /** Moves a view on; the funnel is completed when a view first reaches 90% of a video that leads nowhere else. */
    async updateView(entry: PlayerEntry, input: ViewUpdate): Promise<void> {
      if (!entry.editorIds.has(input.editor_id)) throw validationError({ editor_id: [MESSAGES.eventVideoNotInFunnel] });
      const progress = await analytics().updateView(entry.funnelId, input, viewContext(entry));
      if (!progress) throw notFound(MESSAGES.viewNotFound);
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
    },

    /**
     * Stores interactions whose videos are all in the funnel (errors named per event of a batch)
     * and announces the branches the viewer clicked (an inaction default taken is no click).
     */
    async recordInteractions(entry: PlayerEntry, events: Interaction[], batched: boolean): Promise<number> {
      const errors: FieldErrors = {};
      events.forEach((e, i) => {
        if (!entry.editorIds.has(e.video_id)) errors[batched ? `events.${i}.video_id` : 'video_id'] = [MESSAGES.eventVideoNotInFunnel];
      });
      if (Object.keys(errors).length) throw validationError(errors);
      await analytics().recordInteractions(
        entry.funnelId,
        events.map((e) => ({ event_id: e.event_id, type: e.type, ...where(e) })),
      );
      const clicks = events.filter((e) => e.type === 'branch');
      await webhooks().emit(
        'branch.clicked',
        clicks.map((e) => ({
          source: e.event_id,
          data: { funnel: funnelOf(entry), event_id: e.event_id, ...where(e) },
        })),
      );
      return events.length;
    },
  };
};
