import { MESSAGES } from '@branchify/shared';
import { conflict, forbidden, validationError } from '../http/errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { NewUser } from './service';
import type { UserRecord } from '../content-types/users-permissions';
import { durableTransaction } from '../utils/durable-transaction';

interface ProfileEdit {
  first_name: string;
  last_name: string;
  email: string;
}

/**
 * What an admin does to an account, one use-case per function. A suspension is one transaction:
 * the status, the token version that ends every access token, the revoked sessions and the
 * queued mail are stored together or not at all.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const users = () => getService(strapi, 'users');

  const refuseTakenEmail = async (email: string, exceptId?: number) => {
    if (await users().emailTaken(email, exceptId)) throw validationError({ email: [MESSAGES.emailTaken] });
  };

  return {
    /** An account an admin creates is vouched for: it does not wait for email verification. */
    async create(input: NewUser, actorId: number): Promise<UserRecord> {
      await refuseTakenEmail(input.email);
      const user = await users().create(input, { verified: true });
      strapi.log.info(`[users] admin ${actorId} created user ${user.id}${user.is_admin ? ' (admin)' : ''}`);
      return user;
    },

    /** The login follows the email. */
    async editProfile(target: UserRecord, edit: ProfileEdit): Promise<UserRecord> {
      await refuseTakenEmail(edit.email, target.id);
      return users().update(target.id, { first_name: edit.first_name, last_name: edit.last_name, email: edit.email, username: edit.email });
    },

    /** Locks the user out at once: every token they hold stops working now, not when it expires. */
    async suspend(target: UserRecord, note: string, actorId: number): Promise<UserRecord> {
      if (target.is_admin) throw forbidden(MESSAGES.adminCannotBeSuspended);
      const updated = await durableTransaction(strapi, async () => {
        const user = await users().update(target.id, {
          status: 'suspended',
          status_note: note,
          token_version: (target.token_version ?? 0) + 1,
        });
        await getService(strapi, 'tokens').revokeAllForUser(target.id);
        await getService(strapi, 'notifications').accountSuspended(user, note);
        return user;
      });
      // Their funnels stop loading at once on this process (the others follow the cache version).
      getService(strapi, 'player-payload').invalidateAll();
      strapi.log.info(`[users] admin ${actorId} suspended user ${target.id}`);
      return updated;
    },

    /**
     * The admin vouches for the address (the user could not get or follow the link): the account
     * counts as verified from now, as if the user had followed it, welcome mail included.
     */
    async markVerified(target: UserRecord, actorId: number): Promise<UserRecord> {
      if (target.email_verified_at) throw conflict(MESSAGES.userAlreadyVerified);
      const verified = await users().update(target.id, { email_verified_at: new Date(), confirmed: true });
      await getService(strapi, 'notifications').welcome(verified);
      strapi.log.info(`[users] admin ${actorId} marked user ${target.id} verified`);
      return verified;
    },

    async reactivate(target: UserRecord, actorId: number): Promise<UserRecord> {
      const updated = await users().update(target.id, { status: 'active', status_note: null });
      getService(strapi, 'player-payload').invalidateAll();
      strapi.log.info(`[users] admin ${actorId} reactivated user ${target.id}`);
      return updated;
    },

    async remove(target: UserRecord, actorId: number): Promise<void> {
      if (target.id === actorId) throw forbidden(MESSAGES.cannotDeleteSelf);
      await getService(strapi, 'account-removal').remove(target);
      strapi.log.info(`[users] admin ${actorId} deleted user ${target.id}`);
    },
  };
};
