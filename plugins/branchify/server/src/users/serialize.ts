import type { SubscriptionResource, UserResource } from '@branchify/shared';
/** A user row as the query engine returns it (the users-permissions type, extended). */
export interface UserRecord {
  id: number;
  documentId?: string;
  email: string;
  username?: string;
  password?: string | null;
  first_name: string | null;
  last_name: string | null;
  is_admin: boolean;
  status: 'active' | 'suspended' | string;
  status_note: string | null;
  status_ends_at?: string | Date | null;
  email_verified_at: string | Date | null;
  subscription_id: number | null;
  token_version: number | null;
  stripe_customer_id?: string | null;
  createdAt?: string | Date;
  updatedAt?: string | Date;
}

/** The whole users-permissions row: the record plus the columns only writes and the auth service touch. */
export interface UserRow extends UserRecord {
  username: string;
  provider: string | null;
  confirmed: boolean | null;
  blocked: boolean | null;
  /** The role relation: written as the role's id, read only when populated. */
  role?: number | null;
  /** Set while the account is being deleted (billing refuses from then on). */
  deletion_started_at?: string | Date | null;
}

/** A users-permissions role. */
export interface RoleRow {
  id: number;
  name: string;
  description: string | null;
  type: string;
}

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
export const serializeUser = (user: UserRecord, subscription: SubscriptionResource | null = null): UserResource => ({
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

export type PublicUser = ReturnType<typeof serializeUser>;
