import { formatMoney } from './money';

/** A plan's payment schedules and who manages its subscriptions. */
export const PAYMENT_SCHEDULES = ['monthly', 'yearly', 'one-time', 'free'] as const;
export type PaymentSchedule = (typeof PAYMENT_SCHEDULES)[number];
export const MANAGED_BY = ['platform', 'self'] as const;

/** What price display needs of a plan. */
export interface PricedPlan {
  /** A PaymentSchedule; the row may hold any string. */
  payment_schedule: string;
  price: string | number;
  currency: string;
}

/** A free plan never touches the payment provider: the free schedule, or a price of 0. */
export const isFreePlan = (plan: Pick<PricedPlan, 'payment_schedule' | 'price'>): boolean => plan.payment_schedule === 'free' || Number(plan.price) === 0;

/** What deciding where a plan is offered needs of it. */
export interface OfferedPlan extends Pick<PricedPlan, 'payment_schedule' | 'price'> {
  is_active: boolean | null | undefined;
  /** 'platform' or 'self' (MANAGED_BY). */
  managed_by: string;
}

/**
 * "Choose a plan" (GET plans) offers an active plan; a paid one only while payments can work
 * (Stripe's keys set and accepted), since nobody could pay for it before.
 */
export const isOfferedPlan = (plan: OfferedPlan, paymentsReady: boolean): boolean => Boolean(plan.is_active) && (paymentsReady || isFreePlan(plan));

/**
 * A user picks an offered plan there themselves only when the platform manages it (self-managed
 * plans are sold through the API). The setup checklist's plan step is done once an offered plan
 * passes this, and the page shows its empty state while none does.
 */
export const userMayChoosePlan = (plan: Pick<OfferedPlan, 'managed_by'>): boolean => plan.managed_by !== 'self';

/** 'Free', a one-time price, or 'price/month' / 'price/year'. */
export const priceDisplay = (plan: PricedPlan): string => {
  if (isFreePlan(plan)) return 'Free';
  const money = formatMoney(plan.price, plan.currency);
  if (plan.payment_schedule === 'monthly') return `${money}/month`;
  if (plan.payment_schedule === 'yearly') return `${money}/year`;
  return money;
};
