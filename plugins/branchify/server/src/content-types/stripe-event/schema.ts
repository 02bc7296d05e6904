import { date, defineSchema, json, str, text } from '../define';

export default defineSchema({
  collectionName: 'branchify_stripe_events',
  singularName: 'stripe-event',
  pluralName: 'stripe-events',
  displayName: 'Stripe event',
  internal: true,
  attributes: {
    event_id: str({ required: true }),
    type: str({ required: true }),
    payload: json(),
    status: str({ default: 'received' }),
    processed_at: date(),
    last_error: text(),
  },
  indexes: [{ name: 'branchify_stripe_events_event_uq', columns: ['event_id'], type: 'unique' }],
});
