import { MANAGED_BY, PAYMENT_SCHEDULES, isFreePlan, priceDisplay, type PaymentSchedule, type PlanResource } from '@branchify/shared';

export { MANAGED_BY, PAYMENT_SCHEDULES, type PaymentSchedule };

export interface PlanRow {
  id: number;
  name: string;
  description: string | null;
  price: string;
  currency: string;
  payment_schedule: PaymentSchedule;
  managed_by: 'platform' | 'self';
  max_funnel: number | null;
  max_branch_per_funnel: number | null;
  video_sources: string[] | null;
  is_active: boolean;
  sort_order: number | null;
  stripe_product_id: string | null;
  stripe_price_id: string | null;
  createdAt?: string | Date;
  updatedAt?: string | Date;
}

export const isFree = isFreePlan;

/** Money in the smallest currency unit, as Stripe counts it. */
export const toMinorUnits = (price: string | number): number => Math.round(Number(price) * 100);

/** The plan as clients see it (Stripe ids stay on the server). */
export const presentPlan = (plan: PlanRow): PlanResource => ({
  id: plan.id,
  name: plan.name,
  description: plan.description ?? '',
  price: Number(plan.price).toFixed(2),
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
