import { MESSAGES, type cancelSchema, type integratorSubscribeSchema, type integratorUpdateSchema } from '@branchify/shared';
import type { z } from 'zod';
import { notFound, validationError } from '../http/errors';
import { USER_FIELDS } from '../users/present';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import type { SubscriptionRow } from '../content-types/subscription';
import type { UserRecord } from '../content-types/users-permissions';

type Subscribe = z.output<typeof integratorSubscribeSchema>;
type Update = z.output<typeof integratorUpdateSchema>;
type Cancel = z.output<typeof cancelSchema>;
type IntegratorSubscription = SubscriptionRow & { documentId: string };

/**
 * What an integrator does to a self-managed subscription, one use-case each, through the same
 * billing service as the app (as the actor 'integration'); each logs who did it (`caller`: the
 * API token's id and name, never its key).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const billing = () => getService(strapi, 'billing');
  const log = (caller: string, what: string) => strapi.log.info(`[integrator] ${caller} ${what}`);

  const userOf = async (id: number): Promise<UserRecord> => {
    const user: UserRecord | null = await query(strapi, UID.user).findOne({ where: { id }, select: [...USER_FIELDS] });
    if (!user) throw validationError({ user_id: [MESSAGES.integratorUserNotFound] });
    return user;
  };

  /** A subscription by its documentId, as every Strapi 5 REST route names an entry. */
  const subscriptionOf = async (documentId: string): Promise<IntegratorSubscription> => {
    const row = /^[a-z0-9]{1,64}$/i.test(documentId) ? await query(strapi, UID.subscription).findOne({ where: { documentId } }) : null;
    if (!row) throw notFound();
    return row;
  };

  return {
    /** A self-managed subscription for a user: active at once (the integrator bills it). */
    async create(input: Subscribe, caller: string): Promise<SubscriptionRow> {
      const user = await userOf(input.user_id);
      const outcome = await billing().subscribe(user, input, 'integration');
      log(caller, `created self-managed subscription ${outcome.subscription.id} for user ${user.id} on plan ${input.plan_id}`);
      return outcome.subscription;
    },

    /** One change at a time: the plan, the status (canceled = cancel, active = resume) or the period's end. */
    async update(documentId: string, input: Update, caller: string): Promise<SubscriptionRow> {
      const sub = await subscriptionOf(documentId);
      const changes = [input.plan_id !== undefined, input.status !== undefined, input.renews_at !== undefined && input.plan_id === undefined];
      if (changes.filter(Boolean).length !== 1) throw validationError({ data: [MESSAGES.integratorUpdateNeedsOneChange] });
      const user = await userOf(sub.user_id);
      if (input.plan_id !== undefined) {
        const { subscription } = await billing().change(user, sub, { plan_id: input.plan_id, renews_at: input.renews_at }, 'integration');
        log(caller, `changed subscription ${sub.id} to plan ${input.plan_id}`);
        return subscription;
      }
      if (input.status === 'canceled') {
        return this.cancel(documentId, { immediately: input.period === 'immediately', reason: input.cancellation_reason ?? null }, caller);
      }
      if (input.status === 'active') return this.resume(documentId, caller);
      const row = await billing().setRenewal(user, sub, input.renews_at ?? null, 'integration');
      log(caller, `moved the renewal of subscription ${sub.id}`);
      return row;
    },

    /** Cancels at the end of the period the integrator set (renews_at), or immediately. */
    async cancel(documentId: string, input: Cancel, caller: string): Promise<SubscriptionRow> {
      const sub = await subscriptionOf(documentId);
      const row = await billing().cancel(sub, input, 'integration');
      log(caller, `cancelled subscription ${sub.id}`);
      return row;
    },

    async resume(documentId: string, caller: string): Promise<SubscriptionRow> {
      const sub = await subscriptionOf(documentId);
      const outcome = await billing().resume(await userOf(sub.user_id), sub, 'integration');
      log(caller, `resumed subscription ${sub.id}`);
      return outcome.subscription;
    },
  };
};
