import { MESSAGES } from '@branchify/shared';
import { validationError } from '../http/errors';

/**
 * Secrets are served masked (never in full), and an admin form sends back what it was served:
 * the mask then means "keep the saved value". Any other value containing the mask's stars is an
 * edited mask, not a secret, and is refused rather than stored.
 */
const STARS = '****';

/** A saved password: nothing of it is shown. */
export const PASSWORD_MASK = '********';

/** A provider key: its kind (`sk_test_`, `whsec_`) and last four characters, as Stripe's dashboard shows it. */
export const maskKey = (value: string | null | undefined): string => {
  if (!value) return '';
  const prefix = /^[a-z]+_(?:test_|live_)?/i.exec(value)?.[0] ?? '';
  return value.length - prefix.length > 8 ? `${prefix}${STARS}${value.slice(-4)}` : `${prefix}${STARS}`;
};

/**
 * What incoming key fields mean: undefined (keep the saved value) when empty or the mask that was
 * served; the value itself when it is a new key. An edited mask is refused, every such field
 * named at once. (Keys never contain stars; passwords may, so a password is compared with
 * PASSWORD_MASK only.)
 */
export const unmaskKeys = <K extends string>(fields: Record<K, { value: string | null | undefined; served: string }>): Record<K, string | undefined> => {
  const out = {} as Record<K, string | undefined>;
  const errors: Record<string, string[]> = {};
  for (const field of Object.keys(fields) as K[]) {
    const { value, served } = fields[field];
    if (value === undefined || value === null || value === '' || value === served) out[field] = undefined;
    else if (value.includes(STARS)) errors[field] = [MESSAGES.maskedSecretChanged];
    else out[field] = value;
  }
  if (Object.keys(errors).length) throw validationError(errors);
  return out;
};
