import schema, { INTERACTION_TYPES } from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export { INTERACTION_TYPES };

/** An interaction as the analytics writer inserts it (knex, snake_case timestamps). */
export interface FunnelInteractionInsert {
  funnel_id: number;
  event_id: string;
  view_id: string | null;
  video_id: string;
  node_id: string;
  connected_node: string | null;
  type: string;
  player_time: number;
  /** An inaction: whether the viewer had paused its countdown; null on clicks. */
  countdown_paused: boolean | null;
  /** The variables after the event, as JSON text (null: the funnel has none). */
  variables: string | null;
  /** Always true: the writer counts the rows it stores. */
  counted: true;
  created_at: Date;
  updated_at: Date;
}

/** An interaction as the query engine reads it. */
export interface FunnelInteractionRow {
  id: number;
  funnel_id: number;
  view_id: string | null;
  event_id: string;
  video_id: string | null;
  node_id: string | null;
  connected_node: string | null;
  type: string | null;
  player_time: number | string | null;
  variables?: unknown;
  createdAt?: string | Date;
}
