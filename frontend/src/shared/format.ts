import type { Plan } from './types';

/** 'MMM D, YYYY', e.g. 'Jan 5, 2026'. */
export const formatDate = (value: string | number | Date | null | undefined): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(date);
};

/** Currency in en-US with the record's currency code. */
export const formatMoney = (amount: number | string, currency = 'usd'): string => {
  const n = typeof amount === 'string' ? Number(amount) : amount;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(Number.isFinite(n) ? n : 0);
  } catch {
    return `${n} ${currency.toUpperCase()}`;
  }
};

/** 'Free', a one-time price, or 'price/month' / 'price/year'. */
export const planPrice = (plan: Pick<Plan, 'price' | 'currency' | 'payment_schedule'> & { price_display?: string }): string => {
  if (plan.price_display) return plan.price_display;
  if (plan.payment_schedule === 'free' || Number(plan.price) === 0) return 'Free';
  const money = formatMoney(plan.price, plan.currency);
  if (plan.payment_schedule === 'monthly') return `${money}/month`;
  if (plan.payment_schedule === 'yearly') return `${money}/year`;
  return money;
};

export type BadgeStatus = 'active' | 'inactive' | 'suspended' | 'banned' | 'failed' | 'in-active' | 'transparent' | 'dark';

/** Invoice status → badge. */
export const invoiceBadge = (status: string): BadgeStatus => {
  if (['draft', 'void', 'deleted'].includes(status)) return 'in-active';
  if (['open', 'uncollectible', 'pending', 'unpaid', 'refunded', 'failed'].includes(status)) return 'suspended';
  return 'active';
};

/** Whole days from now until `date` (negative when past). */
export const daysUntil = (date: string | null | undefined, now: Date = new Date()): number | null => {
  if (!date) return null;
  const t = new Date(date).getTime();
  if (Number.isNaN(t)) return null;
  return Math.floor((t - now.getTime()) / 86_400_000);
};

/** The near-renewal warning window: renews_at within 0 to 7 days. */
export const isNearRenewal = (renewsAt: string | null | undefined, now: Date = new Date()): boolean => {
  const d = daysUntil(renewsAt, now);
  return d !== null && d >= 0 && d <= 7;
};

export const initials = (first: string, last: string): string => `${first.trim().charAt(0)}${last.trim().charAt(0)}`.toUpperCase() || '?';
