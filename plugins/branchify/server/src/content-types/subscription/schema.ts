import { MANAGED_BY, SUBSCRIPTION_STATUSES } from '@branchify/shared';
import { belongsTo, belongsToUser, bool, date, defineSchema, enumeration, int, str, text } from '../define';
import { UID } from '../uids';

/** Who ended a subscription: the user, an admin, an integrator, or the system (another plan replaced it, it went unpaid). */
export const CANCELED_BY = ['user', 'admin', 'integration', 'system'] as const;

export default defineSchema({
  collectionName: 'branchify_subscriptions',
  singularName: 'subscription',
  pluralName: 'subscriptions',
  displayName: 'Subscription',
  attributes: {
    user_id: int({ required: true }),
    plan_id: int({ required: true }),
    user: belongsToUser('user_id'),
    plan: belongsTo(UID.plan, 'plan_id'),
    status: enumeration(SUBSCRIPTION_STATUSES, { required: true, default: 'pending' }),
    managed_by: enumeration(MANAGED_BY, { required: true, default: 'platform' }),
    started_at: date(),
    renews_at: date(),
    canceled_at: date(),
    cancel_at_period_end: bool(false),
    cancellation_reason: text(),
    canceled_by: enumeration(CANCELED_BY),
    payment_method_id: str(),
    stripe_subscription_id: str({ private: true }),
    stripe_customer_id: str({ private: true }),
  },
  indexes: [
    { name: 'branchify_subscriptions_user_idx', columns: ['user_id'] },
    { name: 'branchify_subscriptions_stripe_uq', columns: ['stripe_subscription_id'], type: 'unique' },
  ],
});
