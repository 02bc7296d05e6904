import { fieldMessages, MESSAGES } from '@branchify/config';
import { z } from 'zod';
import { confirmed, email, optionalBoolean, password, requiredString } from '../http/fields';

export const createUserSchema = confirmed(
  z.object({
    first_name: requiredString('first_name'),
    last_name: requiredString('last_name'),
    email: email(),
    password: password(),
    password_confirmation: z.string().optional(),
    is_admin: optionalBoolean('is_admin').default(false),
  }),
);

export const updateProfileSchema = z.object({
  first_name: requiredString('first_name'),
  last_name: requiredString('last_name'),
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

export const ADMIN_ROLE_READ_ONLY = MESSAGES.adminRoleReadOnly;
