import { MESSAGES } from '@branchify/shared';
import { validationError, type AppError } from '../http/errors';
import type { PlanRow } from '../content-types/plan';
import type { UserRecord } from '../content-types/users-permissions';
import type { SubscriptionRow } from '../content-types/subscription';
import type { BillingContext } from './context';
import { managedBy, type Actor } from './policy';

/** An active plan the actor may sell: platform plans in the app, self-managed ones through the API. */
export const requirePlan = async (ctx: BillingContext, planId: unknown, actor: Actor): Promise<PlanRow> => {
  const plan = typeof planId === 'number' ? await ctx.plans().find(planId) : null;
  if (!plan || !plan.is_active) throw validationError({ plan_id: [MESSAGES.planNotAvailable] });
  const selfManaged = plan.managed_by === 'self';
  if (actor === 'integration' && !selfManaged) throw validationError({ plan_id: [MESSAGES.platformPlanViaIntegratorApi] });
  if (actor !== 'integration' && selfManaged) throw validationError({ plan_id: [MESSAGES.selfManagedPlan] });
  return plan;
};

/** Refuses a subscription the actor does not manage (the app: platform; the API: self-managed). */
export const requireManagedBy = (sub: SubscriptionRow, actor: Actor, refusal: { app: AppError; api: AppError }) => {
  if (sub.managed_by !== managedBy(actor)) throw actor === 'integration' ? refusal.api : refusal.app;
};

export const refuseAdmins = (user: UserRecord) => {
  if (user.is_admin) throw validationError({ plan_id: [MESSAGES.adminNoSubscriptions] });
};
