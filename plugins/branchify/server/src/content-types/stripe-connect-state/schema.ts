import { date, defineSchema, int, str } from '../define';

/**
 * Stripe Connect OAuth round trips under way: the state (hashed), the admin and session that
 * started it, the browser it was handed to (a cookie's hash), and when it expires. Used once.
 */
export default defineSchema({
  collectionName: 'branchify_stripe_connect_states',
  singularName: 'stripe-connect-state',
  pluralName: 'stripe-connect-states',
  displayName: 'Stripe Connect state',
  internal: true,
  attributes: {
    state_hash: str({ required: true }),
    browser_hash: str({ required: true }),
    admin_id: int({ required: true }),
    session_family: str({ required: true }),
    expires_at: date(),
  },
  indexes: [{ name: 'branchify_stripe_connect_states_hash_uq', columns: ['state_hash'], type: 'unique' }],
});
