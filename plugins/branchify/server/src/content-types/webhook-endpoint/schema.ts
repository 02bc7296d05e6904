import { bool, defineSchema, int, json, str, text } from '../define';

/** Outgoing webhook receivers an admin registered; the signing secret is sealed at rest. */
export default defineSchema({
  collectionName: 'branchify_webhook_endpoints',
  singularName: 'webhook-endpoint',
  pluralName: 'webhook-endpoints',
  displayName: 'Webhook endpoint',
  internal: true,
  attributes: {
    url: text({ required: true }),
    description: str(),
    events: json(),
    secret_encrypted: text({ required: true }),
    enabled: bool(true),
    created_by: int(),
  },
});
