import { MESSAGES } from '@branchify/shared';
import { conflict, forbidden, tooManyRequests, validationError } from '../http/errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { claimFirstAdministrator } from './first-admin';
import type { NewUser } from '../users/service';
import type { RequestMeta } from './tokens';
import type { VerificationParams } from './links';
import { verifyPassword } from './passwords';
import { durableTransaction } from '../utils/durable-transaction';
import type { UserRecord } from '../content-types/users-permissions';

/** The auth use cases; controllers only parse and respond. */
export default ({ strapi }: { strapi: Strapi }) => {
  const users = () => getService(strapi, 'users');
  const tokens = () => getService(strapi, 'tokens');
  const links = () => getService(strapi, 'links');
  const notify = () => getService(strapi, 'notifications');

  return {
    /**
     * The first registration of an install without an administrator becomes a verified admin
     * (accounts made otherwise, such as the demo seed's creator, do not count); later ones must
     * verify. Of several first registrations at once, only the one that inserts the install's
     * claim row wins, and once it is taken no registration becomes an admin again.
     */
    async register(input: NewUser, meta: RequestMeta) {
      if (await users().emailTaken(input.email)) throw validationError({ email: [MESSAGES.emailTaken] });
      const { user, first } = await durableTransaction(strapi, async ({ trx }) => {
        const first = await claimFirstAdministrator(strapi, trx);
        return { user: await users().create({ ...input, is_admin: first }, { verified: first }), first };
      });
      if (first) strapi.log.info(`[auth] first account ${user.email} registered as the administrator`);
      else await notify().verificationLink(user, links().verificationUrl(user));
      return { user, tokens: await tokens().issue(user, meta) };
    },

    /**
     * Sign-in attempts are counted per account and client address: an address that keeps failing on
     * an account is refused there (before the password is even checked, so guessing right does not
     * help), while the owner signing in from their own address is not affected. Each attempt is
     * counted (one atomic increment) before its password is checked, so parallel guesses get no
     * more checks than the budget; a success clears the count, so signing in uses none of it.
     */
    async login(email: string, password: string, meta: RequestMeta) {
      const attempts = `login-failures:${email.trim().toLowerCase()}:${meta.ip ?? 'unknown'}`;
      const limiter = getService(strapi, 'rateLimit');
      const counted = await limiter.hit(attempts, 'account');
      if (!counted.allowed) throw tooManyRequests(counted.retryAfterSeconds);
      const record = await users().findByEmailWithPassword(email);
      const valid = await verifyPassword(password, record?.password);
      if (!record || !valid) throw validationError({ email: [MESSAGES.invalidCredentials] });
      await limiter.clear(attempts);
      // Only after the password matched, so suspension cannot be probed.
      if (record.status !== 'active') throw forbidden(MESSAGES.accountSuspended);
      const { password: _hash, ...user } = record;
      return { user: user as UserRecord, tokens: await tokens().issue(user, meta) };
    },

    async changePassword(user: UserRecord, current: string, next: string) {
      const record = await users().findByEmailWithPassword(user.email);
      if (!record || !(await verifyPassword(current, record.password))) {
        throw validationError({ current_password: [MESSAGES.currentPasswordIncorrect] });
      }
      // The write itself ends every session and reset link (a link mailed before must not undo it).
      await durableTransaction(strapi, () => users().setPassword(user.id, next));
    },

    async sendVerification(user: UserRecord) {
      if (user.email_verified_at) throw conflict(MESSAGES.emailAlreadyVerified);
      await notify().verificationLink(user, links().verificationUrl(user));
    },

    async verifyEmail(params: VerificationParams): Promise<UserRecord> {
      const user = await links().checkVerification(params);
      if (!user) throw forbidden(MESSAGES.invalidVerificationLink);
      if (user.email_verified_at) return user;
      const verified = await users().update(user.id, { email_verified_at: new Date(), confirmed: true });
      await notify().welcome(verified);
      return verified;
    },

    /** Answers the same whether or not the account exists (no enumeration). */
    async forgotPassword(email: string) {
      const user = await users().findByEmailWithPassword(email);
      if (!user || user.status !== 'active') {
        strapi.log.info('[auth] password reset requested for an unknown or inactive address');
        return;
      }
      // The link and its mail are stored together.
      const mailed = await durableTransaction(strapi, async () => {
        const url = await links().passwordResetUrl(user);
        if (url) await notify().passwordResetLink(user, url);
        return url !== null;
      });
      if (!mailed) strapi.log.info(`[auth] password reset for user ${user.id} not mailed: the links already mailed are still live`);
    },

    async resetPassword(email: string, token: string, password: string) {
      const user = await users().findByEmailWithPassword(email);
      if (!user || !(await links().consumeResetToken(user, token))) {
        throw validationError({ email: [MESSAGES.invalidResetToken] });
      }
      await durableTransaction(strapi, async () => {
        await users().setPassword(user.id, password);
        // Whoever could read the reset mail owns the address: the email counts as verified.
        if (!user.email_verified_at) await users().update(user.id, { email_verified_at: new Date(), confirmed: true });
      });
    },
  };
};
