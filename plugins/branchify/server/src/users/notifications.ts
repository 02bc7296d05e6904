import type { Strapi } from '../utils/strapi';
import type { UserRecord } from './serialize';

/**
 * What the product tells a user by email. Until a mailer is configured (operations issue), the
 * links are written to the server log so a local install stays usable; the mail domain replaces
 * these bodies and keeps the log as its fallback.
 */
export default ({ strapi }: { strapi: Strapi }) => ({
  async verificationLink(user: UserRecord, url: string): Promise<void> {
    strapi.log.info(`[mail] Email verification link for ${user.email}: ${url}`);
  },
  async passwordResetLink(user: UserRecord, url: string): Promise<void> {
    strapi.log.info(`[mail] Password reset link for ${user.email}: ${url}`);
  },
  async accountSuspended(user: UserRecord, reason: string): Promise<void> {
    strapi.log.info(`[mail] Account suspended notice for ${user.email} (reason recorded: ${reason.length} characters)`);
  },
});
