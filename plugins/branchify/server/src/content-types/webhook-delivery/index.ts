import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

/** Where a delivery stands in the queue. */
type DeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed';

/** The columns the delivery queue claims and works with. */
export interface DeliveryRow {
  id: number;
  endpoint_id: number;
  event_id: string;
  type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_ms: number | string | null;
}

/** A delivery with its outcome columns, as the query engine reads it. */
export interface WebhookDeliveryRow extends DeliveryRow {
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | Date | null;
}
