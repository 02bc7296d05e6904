/** The statuses a subscription can have. */
export const SUBSCRIPTION_STATUSES = ['active', 'pending', 'payment_required', 'failed_renewal', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface SubscriptionLike {
  status: string;
  canceled_at?: string | Date | null;
}

/**
 * Whether a subscription grants access now: active, or canceled with canceled_at still in the
 * future (the grace period).
 */
export const grantsAccess = (sub: SubscriptionLike | null | undefined, now: Date = new Date()): boolean => {
  if (!sub) return false;
  if (sub.status === 'active') return true;
  return sub.status === 'canceled' && Boolean(sub.canceled_at) && new Date(sub.canceled_at!).getTime() > now.getTime();
};

/** Who asks to resume a subscription: the user, an admin in the app, or an integrator through the API. */
export type ResumeActor = 'user' | 'admin' | 'integration';

/**
 * Who may resume a canceled subscription: a user what they cancelled themselves, an admin also what
 * an admin cancelled, an integrator what an integrator cancelled. Nobody resumes one the system
 * ended (replaced by another plan, given up unpaid).
 */
export const mayResume = (canceledBy: string | null | undefined, actor: ResumeActor): boolean => {
  if (actor === 'admin') return canceledBy === 'user' || canceledBy === 'admin';
  if (actor === 'integration') return canceledBy === 'integration';
  return canceledBy === 'user';
};
