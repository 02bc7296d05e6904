import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

/** One attempt at a delivery. */
export interface AttemptRow {
  id: number;
  delivery_id: number;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
  webhook_timestamp: number | string | null;
  webhook_signature: string | null;
}
