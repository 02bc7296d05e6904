import type { SubscriptionResource, UserResource } from '@branchify/shared';
import { presentSubscription } from '../billing/present';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import type { UserRecord } from '../content-types/users-permissions';

/** The fields a user record is read with: never the hash or the provider's tokens. */
export const USER_FIELDS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'is_admin',
  'status',
  'status_note',
  'status_ends_at',
  'email_verified_at',
  'subscription_id',
  'token_version',
  'createdAt',
  'updatedAt',
] as const;

const iso = (value: string | Date | null | undefined): string | null => (value ? new Date(value).toISOString() : null);

/**
 * The public shape of a user: `{ id, first_name, last_name, email,
 * email_verified_at, is_admin, subscription_id, status, subscription }`, plus the suspension
 * note and timestamps. Never a password hash, token or Stripe secret.
 */
export const presentUser = (user: UserRecord, subscription: SubscriptionResource | null = null): UserResource => ({
  id: user.id,
  first_name: user.first_name ?? '',
  last_name: user.last_name ?? '',
  email: user.email,
  email_verified_at: iso(user.email_verified_at),
  is_admin: Boolean(user.is_admin),
  subscription_id: user.subscription_id ?? null,
  status: user.status ?? 'active',
  status_note: user.status_note ?? null,
  subscription,
  created_at: iso(user.createdAt),
  updated_at: iso(user.updatedAt),
});

/**
 * Presents a user with their current subscription and its plan, which the client routes on after
 * login.
 */
export default ({ strapi }: { strapi: Strapi }) => ({
  async present(user: UserRecord) {
    if (!user.subscription_id) return presentUser(user, null);
    const row = await query(strapi, UID.subscription).findOne({ where: { id: user.subscription_id, user_id: user.id } });
    if (!row) return presentUser(user, null);
    return presentUser(user, presentSubscription(row, await getService(strapi, 'plans').find(row.plan_id)));
  },
});
