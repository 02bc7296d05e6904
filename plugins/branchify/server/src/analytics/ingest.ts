import crypto from 'node:crypto';
import { MESSAGES, valuesFrom, type VariableValues } from '@branchify/shared';
import type { z } from 'zod';
import { notFound, validationError, type FieldErrors } from '../http/errors';
import type { PlayerEntry } from '../funnels/player-payload';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { AnonymousSource } from '../webhooks/anonymous';
import { checkInteraction, checkPosition, checkViewToken, watchTimeLimit, type DropReason } from './integrity';
import type { ViewContext } from './progress';
import type { InteractionEvent } from './recording';
import type { interactionSchema, startViewSchema, updateViewSchema } from './validators';
import { signView } from './view-token';

type StartView = z.infer<typeof startViewSchema>;
type ViewUpdate = z.infer<typeof updateViewSchema>;
type Interaction = z.infer<typeof interactionSchema>;

interface StartedView {
  view_id: string;
  /** Proof that the server started this view: interactions and updates of the view carry it back. */
  view_token: string;
  viewer_token: string;
  last_view_state: { last_watch_time: number; editor_id: string; variables?: VariableValues } | null;
}

/**
 * What the player reports of the viewer's variables, kept only for the funnel's declared ones and
 * typed (defaults fill the rest); null when the funnel declares none.
 */
const variablesOf = (entry: PlayerEntry, reported: unknown): VariableValues | null =>
  entry.payload.variables.length ? valuesFrom(entry.payload.variables, reported) : null;

/** The root and library durations a view's counters need, from the cached player payload. */
const viewContext = (entry: PlayerEntry): ViewContext => ({
  root: entry.payload.root_editor_id,
  durations: new Map(entry.payload.videos.map((v) => [v.editor_id, v.duration])),
});

const funnelOf = (entry: PlayerEntry) => ({ id: entry.funnelId, identifier: entry.payload.identifier, title: entry.payload.title });

/** The viewer sending a request: their client address (as the proxy policy resolves it). */
interface ViewerClient {
  address: string;
}
/** Who triggered a viewer's webhook events, for their bounds (webhooks/anonymous.ts). */
const sourceOf = (entry: PlayerEntry, client: ViewerClient): AnonymousSource => ({ funnelId: entry.funnelId, address: client.address });
/** A viewer's pseudonym for receivers (the token itself lets its holder move the view on). */
const viewerId = (token: string) => crypto.createHash('sha256').update(token).digest('hex').slice(0, 24);

/** The variables after an interaction, as stored (JSON text), or null when the funnel has none. */
const variablesText = (entry: PlayerEntry, reported: unknown): string | null => {
  const values = variablesOf(entry, reported);
  return values ? JSON.stringify(values) : null;
};

/** Where in the funnel an interaction happened, as stored and as announced to webhook receivers. */
const where = (e: Interaction, connectedNode: string | null) => ({
  view_id: e.view_id,
  video_id: e.video_id,
  node_id: e.node_id,
  connected_node: connectedNode,
  player_time: e.player_time,
});

/** Kept for an inaction only (false unless the player says it was paused); a click has none. */
const pausedCountdown = (e: Interaction): boolean | null => (e.type === 'inaction' ? (e.countdown_paused ?? false) : null);

/** Refuses events on a video the funnel does not have (errors named per event of a batch). */
const refuseForeignVideos = (entry: PlayerEntry, events: Interaction[], batched: boolean): void => {
  const errors: FieldErrors = {};
  events.forEach((e, i) => {
    if (!entry.editorIds.has(e.video_id)) errors[batched ? `events.${i}.video_id` : 'video_id'] = [MESSAGES.eventVideoNotInFunnel];
  });
  if (Object.keys(errors).length) throw validationError(errors);
};

/** The `funnel.completed` event of a view that reached 90% of a video leading nowhere else (once per view and video). */
const completedEvent = (entry: PlayerEntry, input: ViewUpdate, reached: number, duration: number) => ({
  source: `${input.view_id}:${input.editor_id}`,
  view: input.view_id,
  data: {
    funnel: funnelOf(entry),
    view_id: input.view_id,
    viewer_id: viewerId(input.viewer_token),
    editor_id: input.editor_id,
    reached,
    duration,
    variables: variablesOf(entry, input.variables) ?? {},
  },
});

type Kept = { event: Interaction; at: ReturnType<typeof where> };

/** The events ingest takes (in a view the server started, on a branch the funnel has), and why it drops the others. */
const sortEvents = (entry: PlayerEntry, events: Interaction[]): { kept: Kept[]; dropped: DropReason[] } => {
  const kept: Kept[] = [];
  const dropped: DropReason[] = [];
  for (const event of events) {
    const signed = checkViewToken(entry, event);
    const verdict = signed.ok ? checkInteraction(entry, event) : signed;
    if (verdict.ok) kept.push({ event, at: where(event, verdict.value.connected_node) });
    else dropped.push(verdict.reason);
  }
  return { kept, dropped };
};

/** The `branch.clicked` event of a stored click; `view`: the view that sent it (its bounds). */
const clickedEvent = (entry: PlayerEntry, click: Omit<InteractionEvent, 'countdown_paused'>, view: string | undefined) => {
  const { type: _type, variables, ...e } = click;
  return {
    source: e.event_id,
    view,
    data: { funnel: funnelOf(entry), ...e, variables: variables ? (JSON.parse(variables) as VariableValues) : {} },
  };
};

const tally = (reasons: DropReason[]) => {
  const counts = new Map<DropReason, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
};

/**
 * What the player reports of a public funnel: views and interactions, stored and announced to
 * webhooks. Only what the funnel really has is taken (analytics/integrity.ts), and only in a view
 * the server started (its view token verifies, and the view is stored for this funnel); an event
 * that is not is dropped and counted, and the request still succeeds: the player payload is
 * public, so the answer tells an attacker nothing new, a player left open across an edit does not
 * retry what can never be taken, and one bad event of a batch never takes the others down. What
 * viewers trigger is announced within its view's and its address's bounds (webhooks/anonymous.ts).
 */

export default ({ strapi }: { strapi: Strapi }) => {
  const analytics = () => getService(strapi, 'analytics');
  const webhooks = () => getService(strapi, 'webhooks');

  return {
    /** Stores a view and answers the returning viewer's last position (read before this view is added). */
    async startView(entry: PlayerEntry, input: StartView, client: ViewerClient): Promise<StartedView> {
      const viewerToken = input.viewer_token ?? analytics().newViewerToken();
      const last = entry.resume && input.viewer_token ? await analytics().lastViewState(entry.funnelId, input.viewer_token) : null;
      const stored = await analytics().startView(entry.funnelId, input.event_id, viewerToken, viewContext(entry));
      // A retried start is announced as first stored (the receiver's copy is kept once per event).
      const announced = stored ? viewerToken : (await analytics().storedView(entry.funnelId, input.event_id))?.viewer_token;
      if (announced !== undefined) {
        await webhooks().emit(
          'funnel.viewed',
          [{ source: input.event_id, view: input.event_id, data: { funnel: funnelOf(entry), view_id: input.event_id, viewer_id: viewerId(announced) } }],
          sourceOf(entry, client),
        );
      }
      const resumed = last && entry.editorIds.has(last.editor_id) ? last : null;
      const variables = resumed ? variablesOf(entry, resumed.variables) : null;
      return {
        view_id: input.event_id,
        view_token: signView(entry.funnelId, input.event_id),
        viewer_token: viewerToken,
        last_view_state: resumed ? { last_watch_time: resumed.last_watch_time, editor_id: resumed.editor_id, ...(variables ? { variables } : {}) } : null,
      };
    },

    /**
     * Moves a view on; the funnel is completed when a view first reaches 90% of a video that leads
     * nowhere else. An update whose view token does not verify, a position past the video's end,
     * or more watch time than the view has lasted, is dropped.
     */
    async updateView(entry: PlayerEntry, input: ViewUpdate, client: ViewerClient): Promise<void> {
      if (!entry.editorIds.has(input.editor_id)) throw validationError({ editor_id: [MESSAGES.eventVideoNotInFunnel] });
      const drop = (reason: DropReason) => analytics().dropped({ id: entry.funnelId, identifier: entry.payload.identifier }, tally([reason]));
      const signed = checkViewToken(entry, input);
      if (!signed.ok) return drop(signed.reason);
      const position = checkPosition(entry, input);
      if (!position.ok) return drop(position.reason);
      const progress = await analytics().updateView(
        entry.funnelId,
        { ...input, duration: position.value.duration, variables: input.variables ? variablesOf(entry, input.variables) : null },
        { ...viewContext(entry), watchTimeLimit: (startedAt) => watchTimeLimit(startedAt) },
      );
      if (progress.status === 'missing') throw notFound(MESSAGES.viewNotFound);
      if (progress.status === 'implausible') return drop('watch_time_over_view_age');
      const duration = progress.duration ?? entry.payload.videos.find((v) => v.editor_id === input.editor_id)?.duration ?? null;
      if (entry.endings.has(input.editor_id) && duration && progress.before < 0.9 * duration && progress.reached >= 0.9 * duration) {
        await webhooks().emit('funnel.completed', [completedEvent(entry, input, progress.reached, duration)], sourceOf(entry, client));
      }
    },

    /**
     * Stores interactions whose videos are all in the funnel (errors named per event of a batch),
     * keeping those of a view the server started (its token verifies, the view is stored for this
     * funnel) on a branch the video has with that branch's own target; announces the branches the
     * viewer clicked (an inaction default taken is no click), a retried event as it was first
     * stored, never as the retry says, within the bounds of the view that sent it. Answers how
     * many events were kept.
     */
    async recordInteractions(entry: PlayerEntry, events: Interaction[], batched: boolean, client: ViewerClient): Promise<number> {
      refuseForeignVideos(entry, events, batched);
      const { kept, dropped } = sortEvents(entry, events);
      const { stored, viewless } = await analytics().recordInteractions(
        entry.funnelId,
        kept.map(({ event, at }) => ({
          event_id: event.event_id,
          type: event.type,
          countdown_paused: pausedCountdown(event),
          ...at,
          variables: variablesText(entry, event.variables),
        })),
      );
      dropped.push(...Array.from(viewless, (): DropReason => 'unknown_view'));
      if (dropped.length) analytics().dropped({ id: entry.funnelId, identifier: entry.payload.identifier }, tally(dropped));
      const retried = kept.filter(({ event }) => !stored.has(event.event_id) && !viewless.has(event.event_id)).map(({ event }) => event.event_id);
      // The view that sent each event (a retried one is announced as stored, but bounded as this view's).
      const sender = new Map(kept.map(({ event }) => [event.event_id, event.view_id]));
      const clicks = [
        ...kept
          .filter(({ event }) => stored.has(event.event_id))
          .map(({ event, at }) => ({ event_id: event.event_id, type: event.type, ...at, variables: variablesText(entry, event.variables) })),
        ...(retried.length ? await analytics().storedInteractions(entry.funnelId, retried) : []),
      ].filter((e) => e.type === 'branch');
      await webhooks().emit(
        'branch.clicked',
        clicks.map((click) => clickedEvent(entry, click, sender.get(click.event_id))),
        sourceOf(entry, client),
      );
      return kept.length - viewless.size;
    },
  };
};
