import { priceDisplay, type PricedPlan } from '@branchify/shared';

export { formatMoney } from '@branchify/shared';

/** 'MMM D, YYYY', e.g. 'Jan 5, 2026'. */
export const formatDate = (value: string | number | Date | null | undefined): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(date);
};

/** 'Free', a one-time price, or 'price/month' / 'price/year' (the server's price_display when it sent one). */
export const planPrice = (plan: PricedPlan & { price_display?: string }): string => plan.price_display || priceDisplay(plan);

export type BadgeStatus = 'active' | 'inactive' | 'suspended' | 'banned' | 'failed' | 'in-active' | 'transparent' | 'dark';

/** An invoice → its badge: a paid invoice partly refunded reads like a refunded one. */
export const invoiceBadgeOf = (invoice: { status: string; amount_refunded: number }): BadgeStatus =>
  invoice.status === 'paid' && invoice.amount_refunded > 0 ? 'suspended' : invoiceBadge(invoice.status);

/** Invoice status → badge. */
const invoiceBadge = (status: string): BadgeStatus => {
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
