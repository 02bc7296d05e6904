import { MESSAGES, type PlanResource, type SubscriptionResource } from '@branchify/shared';

/** What the add-or-change form checks before it lets the admin send. */
export interface PlanChoice {
  user: { is_admin: boolean };
  current: Pick<SubscriptionResource, 'managed_by' | 'plan_id'> | null;
  plan: Pick<PlanResource, 'id' | 'managed_by'> | null;
}

/**
 * Why the subscription cannot be added or changed as chosen (null when it can): admins hold no
 * subscriptions, only platform-managed subscriptions change here, self-managed plans are added
 * through the API, and a change must pick another plan.
 */
export const accountProblem = ({ user, current }: Omit<PlanChoice, 'plan'>): string | null => {
  if (user.is_admin) return MESSAGES.adminNoSubscriptions;
  if (current && current.managed_by !== 'platform') return MESSAGES.onlyPlatformManagedChange;
  return null;
};

export const planProblem = ({ current, plan }: Omit<PlanChoice, 'user'>): string | null => {
  if (!plan) return null;
  if (plan.managed_by === 'self') return MESSAGES.selfManagedPlan;
  if (current && plan.id === current.plan_id) return MESSAGES.samePlan;
  return null;
};

/** The form is valid with a plan selected and neither problem. */
export const canSubmitPlan = (choice: PlanChoice): boolean => Boolean(choice.plan) && !accountProblem(choice) && !planProblem(choice);
