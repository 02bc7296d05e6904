import { MESSAGES, type PlanInput } from '@branchify/shared';
import { conflict } from '../http/errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { PlanRow } from '../content-types/plan';

/** What an admin does to the plans offered, one use-case per function; Stripe mirrors a paid plan's price. */
export default ({ strapi }: { strapi: Strapi }) => {
  const plans = () => getService(strapi, 'plans');
  const billing = () => getService(strapi, 'billing');

  return {
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
