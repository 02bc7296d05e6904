import { date, defineSchema, str, text } from '../define';

export default defineSchema({
  kind: 'singleType',
  collectionName: 'branchify_stripe_settings',
  singularName: 'stripe-setting',
  pluralName: 'stripe-settings',
  displayName: 'Stripe settings',
  internal: true,
  attributes: {
    client_id: str(),
    secret_encrypted: text(),
    publishable_key: str(),
    webhook_secret_encrypted: text(),
    account_id: str(),
    connected_at: date(),
    /** A digest of the secret and publishable keys Stripe last accepted: payments work while they are the keys in use. */
    verified_fingerprint: str(),
  },
});
