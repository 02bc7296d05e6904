import { MESSAGES } from '@branchify/shared';
import { conflict, notFound, serviceUnavailable, unauthenticated } from '../http/errors';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { USER_FIELDS } from '../users/present';
import { isUniqueViolation } from '../utils/db-errors';
import { durableTransaction } from '../utils/durable-transaction';
import type { UserRecord } from '../content-types/users-permissions';
import { toAppError } from './errors';
import type { StripeGateway } from './gateway';
import { activations } from './activation';
import type { Actor } from './policy';
import { serialised } from './customer-lock';

/** The lock a user's subscribe, change, cancel and resume run under, check and write alike. */
export const userLock = (userId: number) => `billing-user:${userId}`;

/**
 * What every billing use-case works with: the tables, the services next door, the Stripe gateway
 * and the user's lock. Stripe is reached only through the gateway; every state we store comes
 * from a freshly read Stripe object through the sync service, the same path the webhooks take.
 */
export const billingContext = (strapi: Strapi) => {
  const users = () => query(strapi, UID.user);
  const settings = () => getService(strapi, 'stripe-settings');
  const log = (message: string) => strapi.log.warn(message);

  const gateway = async (): Promise<StripeGateway> => {
    const g = (await settings().configured()) ? await settings().gateway() : null;
    if (!g) throw serviceUnavailable(MESSAGES.paymentsNotConfigured);
    return g;
  };

  /** Runs a Stripe conversation, turning SDK failures into the product's errors. */
  const stripeCall = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toAppError(error, log);
    }
  };

  /**
   * Runs a billing action under the user's lock on the user as they are now: one gone or being
   * deleted is refused before anything reaches Stripe (the user is signed out; an admin or an
   * integrator is told the account is gone or going).
   */
  const forUser = <T>(userId: number, actor: Actor, work: (user: UserRecord) => Promise<T>): Promise<T> =>
    serialised(userLock(userId), async () => {
      const user = await users().findOne({ where: { id: userId }, select: [...USER_FIELDS, 'deletion_started_at'] });
      if (!user || user.deletion_started_at) {
        strapi.log.info(`[billing] refused a billing action for user ${userId}: the account is ${user ? 'being deleted' : 'gone'}`);
        throw actor === 'user' ? unauthenticated() : user ? conflict(MESSAGES.accountBeingDeleted) : notFound();
      }
      return work(user);
    });

  /** Writes that make a row active: a second active row for the user is a conflict, not a crash. */
  const activating = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await durableTransaction(strapi, work);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(MESSAGES.alreadySubscribed);
      throw error;
    }
  };

  return {
    strapi,
    subscriptions: () => query(strapi, UID.subscription),
    invoices: () => query(strapi, UID.invoice),
    users,
    settings,
    sync: () => getService(strapi, 'billing-sync'),
    plans: () => getService(strapi, 'plans'),
    activation: activations(strapi),
    gateway,
    stripeCall,
    forUser,
    activating,
  };
};

export type BillingContext = ReturnType<typeof billingContext>;
