import { fieldMessages } from '../messages';
import { z } from 'zod';
import { confirmed, email, optionalBoolean, password, personName } from './fields';
import type { SubscriptionResource } from './billing';

export const createUserSchema = confirmed(
  z.object({
    first_name: personName('first_name'),
    last_name: personName('last_name'),
    email: email(),
    password: password(),
    password_confirmation: z.string().optional(),
    is_admin: optionalBoolean('is_admin').default(false),
  }),
);

export const updateProfileSchema = z.object({
  first_name: personName('first_name'),
  last_name: personName('last_name'),
  email: email(),
  is_admin: optionalBoolean('is_admin'),
});

/** Suspension needs a reason; reactivation takes none (an empty note is simply left out). */
export const updateStatusSchema = z
  .object({
    status: z.enum(['active', 'suspended'], { message: fieldMessages.in('status') }),
    status_note: z
      .string({ message: fieldMessages.string('status note') })
      .trim()
      .max(2000, { message: fieldMessages.max('status note', 2000) })
      .nullish(),
    current_status_ends_at: z.unknown().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.status === 'suspended' && !value.status_note) {
      ctx.addIssue({ code: 'custom', path: ['status_note'], message: fieldMessages.required('status note') });
    }
  });

/** A user as the API shows it: never a password hash, token or Stripe secret. */
export interface UserResource {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  email_verified_at: string | null;
  is_admin: boolean;
  subscription_id: number | null;
  /** 'active' or 'suspended'. */
  status: string;
  status_note: string | null;
  subscription: SubscriptionResource | null;
  created_at: string | null;
  updated_at: string | null;
}

/** What login and register answer: the access token (the refresh token is an httpOnly cookie) and the user. */
export interface AuthResource {
  access_token: string;
  user: UserResource;
}
