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

/** 'Free', a one-time price, or 'price/month' / 'price/year'. */
export const priceDisplay = (plan: PricedPlan): string => {
  if (isFreePlan(plan)) return 'Free';
  const money = formatMoney(plan.price, plan.currency);
  if (plan.payment_schedule === 'monthly') return `${money}/month`;
  if (plan.payment_schedule === 'yearly') return `${money}/year`;
  return money;
};
