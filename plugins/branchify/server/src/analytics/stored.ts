import crypto from 'node:crypto';
import type { Strapi } from '../utils/strapi';
import type { InteractionEvent } from './recording';
import { INTERACTIONS, VIEWS } from './store';
import type { FunnelViewRow } from '../content-types/funnel-view';
import type { FunnelInteractionRow } from '../content-types/funnel-interaction';

/** A JSON column as knex reads it: parsed on PostgreSQL, text on SQLite. */
const jsonOf = (value: unknown): unknown => {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
};

/** What ingest reads back of stored events: a viewer's resume point, and retried events as first stored. */
export const storedEvents = (strapi: Strapi) => {
  const db = () => strapi.db.connection;

  return {
    newViewerToken: (): string => crypto.randomBytes(24).toString('base64url'),

    /** The last position a viewer reached (resume), or the funnel's latest when no viewer is given. */
    lastViewState: async (funnelId: number, viewerToken?: string): Promise<{ last_watch_time: number; editor_id: string; variables: unknown } | null> => {
      const q = db()<FunnelViewRow>(VIEWS).where({ funnel_id: funnelId }).whereNotNull('editor_id');
      if (viewerToken) q.andWhere({ viewer_token: viewerToken });
      const row = await q.orderBy('updated_at', 'desc').orderBy('id', 'desc').first('last_watch_time', 'editor_id', 'variables');
      return row ? { last_watch_time: Number(row.last_watch_time ?? 0), editor_id: String(row.editor_id), variables: jsonOf(row.variables) } : null;
    },

    /** A funnel's view as stored (a retried start is announced as it was first stored). */
    storedView: async (funnelId: number, eventId: string): Promise<{ viewer_token: string } | null> => {
      const row = await db()<FunnelViewRow>(VIEWS).where({ funnel_id: funnelId, event_id: eventId }).first('viewer_token');
      return row ? { viewer_token: String(row.viewer_token ?? '') } : null;
    },

    /** A funnel's interactions as stored, by event id (retried events are announced as they were first stored). */
    storedInteractions: async (funnelId: number, eventIds: readonly string[]): Promise<Array<Omit<InteractionEvent, 'countdown_paused'>>> => {
      if (!eventIds.length) return [];
      const rows = await db()<FunnelInteractionRow>(INTERACTIONS)
        .where({ funnel_id: funnelId })
        .whereIn('event_id', [...eventIds])
        .select('event_id', 'view_id', 'video_id', 'node_id', 'connected_node', 'type', 'player_time', 'variables');
      return rows.map((r) => ({
        event_id: String(r.event_id),
        view_id: r.view_id ?? null,
        video_id: String(r.video_id ?? ''),
        node_id: String(r.node_id ?? ''),
        connected_node: r.connected_node ?? null,
        type: String(r.type ?? 'branch'),
        player_time: Number(r.player_time ?? 0),
        variables: r.variables === null || r.variables === undefined ? null : JSON.stringify(jsonOf(r.variables)),
      }));
    },
  };
};
