import { formatAmount, isFreePlan, priceDisplay, type AdminPlanResource, type PlanResource } from '@branchify/shared';
import type { PlanRow } from '../content-types/plan';

export const isFree = isFreePlan;

/** The plan as clients see it (Stripe ids stay on the server). */
export const presentPlan = (plan: PlanRow): PlanResource => ({
  id: plan.id,
  name: plan.name,
  description: plan.description ?? '',
  price: formatAmount(plan.price, plan.currency),
  currency: plan.currency,
  payment_schedule: plan.payment_schedule,
  managed_by: plan.managed_by,
  max_funnel: plan.max_funnel ?? null,
  max_branch_per_funnel: plan.max_branch_per_funnel ?? null,
  video_sources: plan.video_sources ?? null,
  is_active: Boolean(plan.is_active),
  sort_order: plan.sort_order ?? 0,
  price_display: priceDisplay(plan),
});

const iso = (value: string | Date | null | undefined): string | null => (value ? new Date(value).toISOString() : null);

/**
 * The plan as the admin panel sees it: also how many subscriptions hold it (which blocks deletion)
 * and whether anyone can pay for it yet (a paid plan needs Stripe configured).
 */
export const presentAdminPlan = (plan: PlanRow, facts: { subscriberCount: number; paymentsConfigured: boolean }): AdminPlanResource => ({
  ...presentPlan(plan),
  subscriber_count: facts.subscriberCount,
  payment_ready: isFree(plan) || facts.paymentsConfigured,
  created_at: iso(plan.createdAt),
  updated_at: iso(plan.updatedAt),
});
