import { MANAGED_BY, PAYMENT_SCHEDULES } from '@branchify/shared';
import { bool, defineSchema, enumeration, int, json, str, text } from '../define';

export default defineSchema({
  collectionName: 'branchify_plans',
  singularName: 'plan',
  pluralName: 'plans',
  displayName: 'Plan',
  attributes: {
    name: str({ required: true }),
    description: text(),
    price: str({ required: true, default: '0' }),
    currency: str({ required: true, default: 'usd' }),
    payment_schedule: enumeration(PAYMENT_SCHEDULES, { required: true, default: 'monthly' }),
    managed_by: enumeration(MANAGED_BY, { required: true, default: 'platform' }),
    max_funnel: int(),
    max_branch_per_funnel: int(),
    video_sources: json(),
    is_active: bool(true),
    sort_order: int({ default: 0 }),
    // Private: Strapi's generated REST API (/api/branchify) never shows them.
    stripe_product_id: str({ private: true }),
    stripe_price_id: str({ private: true }),
  },
  indexes: [{ name: 'branchify_plans_active_idx', columns: ['is_active', 'sort_order'] }],
});
