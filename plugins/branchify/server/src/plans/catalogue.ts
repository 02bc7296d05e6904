import { MESSAGES, isOfferedPlan, userMayChoosePlan, type PlanInput } from '@branchify/shared';
import { conflict } from '../http/errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { PlanRow } from '../content-types/plan';

/**
 * The plans offered, and what an admin does to them, one use-case per function; Stripe mirrors a
 * paid plan's price.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const plans = () => getService(strapi, 'plans');
  const billing = () => getService(strapi, 'billing');

  /** What "Choose a plan" shows, in its order (`paymentsReady`: Stripe's state, when the caller has read it already). */
  const offered = async (paymentsReady?: boolean): Promise<PlanRow[]> => {
    const payable = paymentsReady ?? (await getService(strapi, 'stripe-settings').ready());
    return (await plans().listActive()).filter((plan) => isOfferedPlan(plan, payable));
  };

  return {
    offered,

    /** Whether a new user finds a plan there to pick themselves (the setup checklist's plan step). */
    async anyPickable(paymentsReady?: boolean): Promise<boolean> {
      return (await offered(paymentsReady)).some(userMayChoosePlan);
    },

    async create(input: PlanInput, actorId: number): Promise<PlanRow> {
      const plan = await plans().create(input);
      await billing().mirrorPlan(plan);
      strapi.log.info(`[plans] admin ${actorId} created plan ${plan.id}`);
      return plan;
    },

    async update(existing: PlanRow, input: PlanInput): Promise<PlanRow> {
      const plan = await plans().update(existing, input);
      await billing().mirrorPlan(plan);
      return plan;
    },

    /** A plan someone subscribes to stays. */
    async remove(plan: PlanRow): Promise<void> {
      if ((await billing().subscriberCount(plan.id)) > 0) throw conflict(MESSAGES.planHasSubscribers);
      await plans().remove(plan.id);
    },
  };
};
