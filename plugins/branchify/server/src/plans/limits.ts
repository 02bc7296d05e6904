import { MESSAGES, VIDEO_PROVIDERS, grantsAccess } from '@branchify/shared';
import { forbidden } from '../http/errors';
import { query, UID, type Strapi } from '../utils/strapi';
import type { PlanRow } from '../content-types/plan';
import type { UserRecord } from '../content-types/users-permissions';

/**
 * What an action asks of the plan: the count it would reach, or the provider it uses. A funnel's
 * elements are counted per type: branch and text elements are each held to max_branch_per_funnel.
 */
type LimitRequest = { kind: 'funnels'; count: number } | { kind: 'elements'; branches: number; texts: number } | { kind: 'video_source'; provider: string };

/** A limit blocks when it is set and below the count the action would reach. */
const exceeds = (limit: number | null | undefined, count: number): boolean => limit !== null && limit !== undefined && limit < count;

/** Without any subscription, only YouTube is allowed. */
const NO_SUBSCRIPTION_SOURCES = ['youtube'];

/**
 * The plan-limit check, used by every action it guards. Admins always pass.
 * Throws 403 with the spec's message; returns nothing when the action is allowed.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const activePlan = async (user: UserRecord): Promise<{ plan: PlanRow | null; hasSubscription: boolean }> => {
    if (!user.subscription_id) return { plan: null, hasSubscription: false };
    const sub = await query(strapi, UID.subscription).findOne({ where: { id: user.subscription_id, user_id: user.id } });
    if (!sub) return { plan: null, hasSubscription: false };
    if (!grantsAccess(sub)) return { plan: null, hasSubscription: true };
    const plan = await query(strapi, UID.plan).findOne({ where: { id: sub.plan_id } });
    return { plan, hasSubscription: true };
  };

  return {
    activePlan,

    /** The providers this user may add (for the create-video modal). */
    async allowedProviders(user: UserRecord): Promise<string[]> {
      if (user.is_admin) return [...VIDEO_PROVIDERS];
      const { plan, hasSubscription } = await activePlan(user);
      if (!hasSubscription) return NO_SUBSCRIPTION_SOURCES;
      if (!plan) return [];
      return plan.video_sources ?? [...VIDEO_PROVIDERS];
    },

    async assert(user: UserRecord, request: LimitRequest): Promise<void> {
      if (user.is_admin) return;
      const { plan, hasSubscription } = await activePlan(user);

      if (request.kind === 'video_source') {
        const provider = request.provider.toLowerCase();
        if (!hasSubscription) {
          if (NO_SUBSCRIPTION_SOURCES.includes(provider)) return;
          throw forbidden(MESSAGES.upgradeForVideoSource);
        }
        if (!plan) throw forbidden(MESSAGES.noActivePlan);
        if (plan.video_sources && !plan.video_sources.map((s) => s.toLowerCase()).includes(provider)) {
          throw forbidden(MESSAGES.upgradeForVideoSource);
        }
        return;
      }

      if (!hasSubscription) throw forbidden(MESSAGES.noSubscription);
      if (!plan) throw forbidden(MESSAGES.noActivePlan);
      if (request.kind === 'funnels') {
        if (exceeds(plan.max_funnel, request.count)) throw forbidden(MESSAGES.upgradeForFunnels);
        return;
      }
      if (exceeds(plan.max_branch_per_funnel, request.branches)) throw forbidden(MESSAGES.branchLimitReached);
      if (exceeds(plan.max_branch_per_funnel, request.texts)) throw forbidden(MESSAGES.textLimitReached);
    },
  };
};
