import { env } from '@branchify/shared/node';
import { hmac, randomToken, safeEqual, sha1, sha256 } from './crypto';
import { query, UID, type Strapi } from '../utils/strapi';
import { durableTransaction } from '../utils/durable-transaction';
import { getService } from '../utils/services';
import type { UserRecord } from '../content-types/users-permissions';

/** Reset links one account may hold at once (each one mailed). */
const MAX_LIVE_RESET_LINKS = 3;

export interface VerificationParams {
  id: string;
  hash: string;
  expires: string;
  signature: string;
}

/** The signing key for verification links, derived from the app key (never the key itself). */
const signingKey = () => hmac(env().APP_KEYS[0]!, 'branchify:email-verification');

const canonical = (p: Omit<VerificationParams, 'signature'>) => `expires=${p.expires}&hash=${p.hash}&id=${p.id}`;

/**
 * Signed email-verification links (id, hash = sha1(email), expires, signature = HMAC of the rest),
 * and single-use password-reset tokens stored hashed with a 60-minute expiry (a few live at once).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const resets = () => query(strapi, UID.passwordReset);

  return {
    verificationUrl(user: UserRecord): string {
      const expires = String(Math.floor(Date.now() / 1000) + env().VERIFICATION_LINK_TTL_MINUTES * 60);
      const params = { id: String(user.id), hash: sha1(user.email.toLowerCase()), expires };
      const qs = new URLSearchParams({ ...params, signature: hmac(signingKey(), canonical(params)) });
      return `${env().PUBLIC_URL}/email-verify?${qs.toString()}`;
    },

    /** The user a verification link names, when its signature, expiry and email hash all hold. */
    async checkVerification(p: VerificationParams): Promise<UserRecord | null> {
      if (!safeEqual(hmac(signingKey(), canonical(p)), p.signature)) return null;
      if (!/^\d+$/.test(p.expires) || Number(p.expires) * 1000 < Date.now()) return null;
      const user = await getService(strapi, 'users').findRecord(Number(p.id));
      if (!user || !safeEqual(sha1(user.email.toLowerCase()), p.hash)) return null;
      return user;
    },

    /**
     * A new reset link, unless the user already holds MAX_LIVE_RESET_LINKS live ones (then null:
     * those are in their inbox). Earlier links keep working until one is used or they expire, so a
     * request made by someone else never revokes a link already mailed, and the reset mail anyone
     * can trigger for one account is bounded. Parallel requests queue on the user's row
     * (PostgreSQL; SQLite's single writer serialises them), so the count holds.
     */
    async passwordResetUrl(user: UserRecord): Promise<string | null> {
      const raw = randomToken(32);
      const issued = await durableTransaction(strapi, async ({ trx }) => {
        if (strapi.db.dialect.client === 'postgres') await trx.raw('SELECT id FROM up_users WHERE id = ? FOR UPDATE', [user.id]);
        const now = new Date();
        await resets().deleteMany({ where: { user_id: user.id, $or: [{ used_at: { $notNull: true } }, { expires_at: { $lt: now } }] } });
        if ((await resets().count({ where: { user_id: user.id } })) >= MAX_LIVE_RESET_LINKS) return false;
        await resets().create({
          data: {
            user_id: user.id,
            token_hash: sha256(raw),
            expires_at: new Date(now.getTime() + env().PASSWORD_RESET_TTL_MINUTES * 60_000),
          },
        });
        return true;
      });
      if (!issued) return null;
      const qs = new URLSearchParams({ token: raw, email: user.email });
      return `${env().PUBLIC_URL}/password-reset?${qs.toString()}`;
    },

    /** Marks a reset token used (atomically, once) if it is valid for this user. */
    async consumeResetToken(user: UserRecord, raw: string): Promise<boolean> {
      const record = await resets().findOne({ where: { token_hash: sha256(raw), user_id: user.id } });
      if (!record || record.used_at) return false;
      if (new Date(record.expires_at ?? 0).getTime() < Date.now()) return false;
      const claimed = await resets().updateMany({ where: { id: record.id, used_at: null }, data: { used_at: new Date() } });
      return claimed.count === 1;
    },

    async deleteAllForUser(userId: number): Promise<void> {
      await resets().deleteMany({ where: { user_id: userId } });
    },
  };
};
