import { fieldMessages } from '../messages';
import { email, requiredString } from './fields';
import { z } from 'zod';

const optional = (name: string, max = 255) =>
  z
    .string({ message: fieldMessages.string(name.replace(/_/g, ' ')) })
    .trim()
    .max(max, { message: fieldMessages.max(name.replace(/_/g, ' '), max) })
    .nullish();

/** Laravel-style mailers send `encryption: null` for none; both spellings are accepted. */
const encryption = z
  .union([z.enum(['none', 'ssl', 'tls']), z.null(), z.literal('')], { message: 'The encryption must be none, ssl or tls.' })
  .optional()
  .transform((v) => (v ? v : 'none'));

export const mailerSchema = z.object({
  host: requiredString('host').refine((v) => /^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/.test(v), { message: 'The host must be a host name or IP address.' }),
  port: z.coerce
    .number({ message: 'The port must be a number.' })
    .int({ message: 'The port must be a whole number.' })
    .min(1, { message: 'The port must be between 1 and 65535.' })
    .max(65535, { message: 'The port must be between 1 and 65535.' }),
  encryption,
  username: optional('username'),
  password: z
    .string({ message: fieldMessages.string('password') })
    .max(1000, { message: fieldMessages.max('password', 1000) })
    .nullish(),
  from_address: email('from_address'),
  from_name: optional('from_name'),
});

export type MailerBody = z.output<typeof mailerSchema>;
