import { z } from 'zod';
import { requiredString } from './fields';

export const licenseKeySchema = z.object({
  license_key: requiredString('license_key', 255).refine((v) => /^[A-Za-z0-9][A-Za-z0-9._-]{3,254}$/.test(v), {
    message: 'The license key may contain only letters, digits, dots, dashes and underscores (at least 4 characters).',
  }),
});
