import { priceDisplay, type PlanResource, type SubscriptionResource } from '@branchify/shared';
import type { BadgeStatus } from '../../shared/format';

/** A plan as the admin select lists it: 'name - price'. */
export const planOption = (plan: Pick<PlanResource, 'name' | 'price' | 'currency' | 'payment_schedule'>): string => `${plan.name} - ${priceDisplay(plan)}`;

/** Subscription status → badge: active is green, canceled grey, anything waiting on payment red. */
export const subscriptionBadge = (status: string): BadgeStatus => (status === 'active' ? 'active' : status === 'canceled' ? 'in-active' : 'suspended');

/** 'payment_required' → 'payment required'. */
export const statusLabel = (status: string): string => status.replace(/_/g, ' ');

/** The currency's symbol in en-US ('$', '€', 'CA$'); the code itself when Intl does not know it. */
export const currencySymbol = (currency: string): string => {
  try {
    const parts = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).formatToParts(0);
    return parts.find((p) => p.type === 'currency')?.value ?? currency.toUpperCase();
  } catch {
    return currency.toUpperCase();
  }
};

/** One-time and free plans end at once; only recurring ones can run to the end of their period. */
export const cancelsOnlyImmediately = (sub: Pick<SubscriptionResource, 'plan'>): boolean =>
  !sub.plan || sub.plan.payment_schedule === 'one-time' || sub.plan.payment_schedule === 'free';
