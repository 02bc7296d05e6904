import { bigint, defineSchema, int, str, text } from '../define';

/** Every attempt at a delivery: its HTTP status or error (the delivery log). */
export default defineSchema({
  collectionName: 'branchify_webhook_attempts',
  singularName: 'webhook-attempt',
  pluralName: 'webhook-attempts',
  displayName: 'Webhook attempt',
  internal: true,
  attributes: {
    delivery_id: int({ required: true }),
    attempt: int({ required: true }),
    status_code: int(),
    error: text(),
    duration_ms: int(),
    /** The Standard Webhooks `webhook-timestamp` and `webhook-signature` it was sent with. */
    webhook_timestamp: bigint(),
    webhook_signature: str(),
  },
  indexes: [{ name: 'branchify_webhook_attempts_delivery_idx', columns: ['delivery_id', 'attempt'] }],
});
