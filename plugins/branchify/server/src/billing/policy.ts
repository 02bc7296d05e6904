import { grantsAccess } from '@branchify/shared';
import type { SubscriptionRow } from '../content-types/subscription';

/**
 * Who asked for a billing change: the user themselves, an admin on their behalf (both in the app),
 * or an integrator through the API with a Strapi API token.
 */
export type Actor = 'user' | 'admin' | 'integration';

/**
 * Which subscriptions an actor manages: the app manages platform subscriptions (paid through
 * Stripe), the integrator API manages self-managed ones (billed by the integrator).
 */
export const managedBy = (actor: Actor): 'platform' | 'self' => (actor === 'integration' ? 'self' : 'platform');

/**
 * Only the user's own action charges their card. A paid plan an admin starts (added, changed to,
 * or restarted by a resume) never touches a saved card: it waits in `payment_required` with an
 * open invoice the user pays from the app. A free plan an admin adds is active at once.
 */
export const chargesCard = (actor: Actor): boolean => actor === 'user';

/**
 * Whether a new subscription may take the place of the user's current one. Never one that still
 * grants access; an admin also leaves alone one that is still live (awaiting payment or 3-D
 * Secure, or a failed renewal): that one is changed, not added over.
 */
export const mayReplace = (current: SubscriptionRow | null, actor: Actor): boolean => {
  if (!current) return true;
  if (grantsAccess(current)) return false;
  return actor === 'user' || current.status === 'canceled';
};

/** Who may resume a canceled subscription: the rule the app shows and the API enforces. */
export { mayResume } from '@branchify/shared';

/**
 * Statuses a row may reach `active` from without it being a new subscription (a renewal paid after
 * it failed). From any other status, or onto another plan, reaching `active` is an activation: the
 * moment the user is told their subscription is active.
 */
export const STILL_ACTIVE = ['active', 'failed_renewal'] as const;
