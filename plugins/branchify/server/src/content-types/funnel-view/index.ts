import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

/** A view as the analytics writer inserts it (knex, snake_case timestamps). */
export interface FunnelViewInsert {
  funnel_id: number;
  event_id: string;
  viewer_token: string;
  watch_time: number;
  last_watch_time: number;
  /** Always true: the writer counts the rows it stores. */
  counted: true;
  created_at: Date;
  updated_at: Date;
}

/** Furthest point reached per video, by editor_id. */
export type Progress = Record<string, { max: number; duration: number | null }>;

/** A view as the query engine reads it. */
export interface FunnelViewRow {
  id: number;
  funnel_id: number;
  event_id: string;
  viewer_token: string | null;
  watch_time: number | string | null;
  last_watch_time: number | string | null;
  editor_id: string | null;
  progress: Progress | null;
  variables?: unknown;
  createdAt?: string | Date;
}
