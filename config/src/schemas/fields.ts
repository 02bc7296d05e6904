import { fieldMessages } from '../messages';
import { z } from 'zod';

/** Field builders with the product's messages, so every form reports errors the same way. */
const label = (name: string) => name.replace(/_/g, ' ');

export const requiredString = (name: string, max = 255) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? fieldMessages.required(label(name)) : fieldMessages.string(label(name))) })
    .trim()
    .min(1, { message: fieldMessages.required(label(name)) })
    .max(max, { message: fieldMessages.max(label(name), max) });

/** A person's name: it lands in branded mail, so it stays short. */
const PERSON_NAME_MAX = 60;
export const personName = (name: string) => requiredString(name, PERSON_NAME_MAX);

export const email = (name = 'email') =>
  requiredString(name)
    .toLowerCase()
    .pipe(z.email({ message: fieldMessages.email(label(name)) }));

/** bcrypt reads only the first 72 bytes of a password: a longer one would be cut without a word. */
export const PASSWORD_MAX_BYTES = 72;
/** True for a password bcrypt would cut short (more than 72 bytes of UTF-8). */
export const passwordTooLong = (value: string): boolean => new TextEncoder().encode(value).length > PASSWORD_MAX_BYTES;

/** A new password (to be hashed): at least `min` characters, at most 72 bytes of UTF-8. */
export const password = (name = 'password', min = 8) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? fieldMessages.required(label(name)) : fieldMessages.string(label(name))) })
    .min(1, { message: fieldMessages.required(label(name)) })
    .min(min, { message: fieldMessages.min(label(name), min) })
    .refine((value) => !passwordTooLong(value), { message: fieldMessages.maxBytes(label(name), PASSWORD_MAX_BYTES) });

/**
 * A password to check against the stored one (sign-in, the current password): taken exactly as
 * typed, spaces included, since that is how it was hashed; long enough for any password ever stored.
 */
export const givenPassword = (name = 'password') =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? fieldMessages.required(label(name)) : fieldMessages.string(label(name))) })
    .min(1, { message: fieldMessages.required(label(name)) })
    .max(1024, { message: fieldMessages.max(label(name), 1024) });

export const optionalBoolean = (name: string) => z.boolean({ message: fieldMessages.boolean(label(name)) }).optional();

/** Adds the Laravel-style `confirmed` rule: `password_confirmation` must equal `password`. */
export const confirmed = <S extends z.ZodType<{ password: string; password_confirmation?: string }>>(schema: S) =>
  schema.superRefine((value, ctx) => {
    if (value.password !== value.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: fieldMessages.confirmed('password') });
    }
  });
