import { z } from 'zod';
import { confirmed, email, givenPassword, password, personName, requiredString } from './fields';

export const registerSchema = confirmed(
  z.object({
    first_name: personName('first_name'),
    last_name: personName('last_name'),
    email: email(),
    password: password(),
    password_confirmation: z.string().optional(),
  }),
);

export const loginSchema = z.object({
  email: email(),
  password: givenPassword(),
});

export const changePasswordSchema = confirmed(
  z.object({
    current_password: givenPassword('current_password'),
    password: password(),
    password_confirmation: z.string().optional(),
  }),
);

export const forgotSchema = z.object({ email: email() });

export const resetSchema = confirmed(
  z.object({
    token: requiredString('token', 512),
    email: email(),
    password: password(),
    password_confirmation: z.string().optional(),
  }),
);

const param = (name: string) => z.union([z.string(), z.number()]).transform(String).pipe(requiredString(name, 512));
export const verifyEmailSchema = z.object({
  id: param('id'),
  hash: param('hash'),
  expires: param('expires'),
  signature: param('signature'),
});
