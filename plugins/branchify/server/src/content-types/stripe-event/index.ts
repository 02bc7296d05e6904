import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface StripeEventRow {
  id: number;
  event_id: string;
  type: string;
  payload: unknown;
  status: string | null;
  processed_at: string | Date | null;
  last_error: string | null;
}
