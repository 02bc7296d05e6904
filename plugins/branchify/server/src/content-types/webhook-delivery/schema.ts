import { bigint, date, defineSchema, int, str, text } from '../define';

/** One event for one endpoint: a DB-backed queue row (claimed by a conditional UPDATE). */
export default defineSchema({
  collectionName: 'branchify_webhook_deliveries',
  singularName: 'webhook-delivery',
  pluralName: 'webhook-deliveries',
  displayName: 'Webhook delivery',
  internal: true,
  attributes: {
    endpoint_id: int({ required: true }),
    event_id: str({ required: true }),
    type: str({ required: true }),
    /** The exact JSON body sent (and signed) on every attempt. */
    payload: text({ required: true }),
    status: str({ default: 'pending' }),
    attempts: int({ default: 0 }),
    /** Attempts allowed so far (a resend grants another round). */
    max_attempts: int({ default: 0 }),
    /** Epoch milliseconds, compared in SQL on both databases. */
    next_attempt_ms: bigint(),
    last_status_code: int(),
    last_error: text(),
    delivered_at: date(),
  },
  indexes: [
    { name: 'branchify_webhook_deliveries_event_uq', columns: ['endpoint_id', 'event_id'], type: 'unique' },
    { name: 'branchify_webhook_deliveries_due_idx', columns: ['status', 'next_attempt_ms'] },
  ],
});
