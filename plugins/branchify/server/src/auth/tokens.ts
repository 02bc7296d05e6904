import { env } from '@branchify/shared/node';
import jwt from 'jsonwebtoken';
import { randomToken, sha256 } from './crypto';
import { query, UID, type Strapi } from '../utils/strapi';
import type { UserRecord } from '../users/serialize';

const ISSUER = 'branchify';
const AUDIENCE = 'branchify-api';
/** Two tabs restoring a session at once both present the same token; that is not theft. */
const ROTATION_GRACE_MS = 10_000;

export interface RefreshTokenRow {
  id: number;
  user_id: number;
  token_hash: string;
  family: string;
  expires_at: string | Date | null;
  rotated_at: string | Date | null;
  revoked_at: string | Date | null;
  user_agent: string | null;
  ip: string | null;
}

interface AccessClaims {
  sub: string;
  tv: number;
  /** The session (refresh family) the token was issued to: it dies when that session ends. */
  sid?: string;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  refresh_expires_at: Date;
}

/**
 * A refresh either rotates, or is refused: `grace` when another tab rotated the same token a moment
 * ago (that tab's new cookie must be left alone), `invalid` for anything else.
 */
export type Rotation = { user: UserRecord; tokens: IssuedTokens; refused?: undefined } | { refused: 'grace' | 'invalid' };
const REFUSED = { refused: 'invalid' } as const;

export interface RequestMeta {
  ip?: string;
  userAgent?: string;
}

/**
 * Access tokens are short-lived JWTs carrying the user's token version (bumped on password
 * change/reset and suspension, which kills every outstanding token) and their session, so that
 * signing out ends them too. Refresh tokens are random,
 * stored hashed, rotated on every use; presenting a rotated one revokes its whole family.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const refreshTokens = () => query(strapi, UID.refreshToken);

  const signAccess = (user: Pick<UserRecord, 'id' | 'token_version'>, family: string): string =>
    jwt.sign({ tv: user.token_version ?? 0, sid: family }, env().JWT_SECRET, {
      algorithm: 'HS256',
      subject: String(user.id),
      issuer: ISSUER,
      audience: AUDIENCE,
      expiresIn: env().ACCESS_TOKEN_TTL_SECONDS,
    });

  const storeRefresh = async (userId: number, family: string, meta: RequestMeta) => {
    const raw = randomToken(48);
    const expiresAt = new Date(Date.now() + env().REFRESH_TOKEN_TTL_DAYS * 86_400_000);
    await refreshTokens().create({
      data: {
        user_id: userId,
        token_hash: sha256(raw),
        family,
        expires_at: expiresAt,
        ip: meta.ip?.slice(0, 64),
        user_agent: meta.userAgent?.slice(0, 500),
      },
    });
    return { raw, expiresAt };
  };

  const issue = async (user: UserRecord, meta: RequestMeta, family = randomToken(16)): Promise<IssuedTokens> => {
    const refresh = await storeRefresh(user.id, family, meta);
    return {
      access_token: signAccess(user, family),
      token_type: 'Bearer',
      expires_in: env().ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: refresh.raw,
      refresh_expires_at: refresh.expiresAt,
    };
  };

  const sessionIsLive = async (userId: number, family: string) =>
    Boolean(await refreshTokens().findOne({ where: { user_id: userId, family, revoked_at: null }, select: ['id'] }));

  const revokeFamily = (family: string) => refreshTokens().updateMany({ where: { family, revoked_at: null }, data: { revoked_at: new Date() } });

  return {
    issue,

    /** Whether the user's session (refresh family) is still signed in. */
    sessionIsLive,

    /** The session an access token that already passed `authenticateAccessToken` was issued to. */
    sessionOf(token: string): string | null {
      const claims = jwt.decode(token) as Partial<AccessClaims> | null;
      return typeof claims?.sid === 'string' ? claims.sid : null;
    },

    /** The live user behind an access token, or null (any failure is simply "unauthenticated"). */
    async authenticateAccessToken(token: string): Promise<UserRecord | null> {
      let claims: AccessClaims;
      try {
        claims = jwt.verify(token, env().JWT_SECRET, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
        }) as unknown as AccessClaims;
      } catch {
        return null;
      }
      const id = Number(claims.sub);
      if (!Number.isInteger(id)) return null;
      const user = await strapi.plugin('branchify').service('users').findRecord(id);
      if (!user || user.status !== 'active' || (user.token_version ?? 0) !== claims.tv) return null;
      // Signing out (or any revocation of the session) ends its access tokens at once.
      if (typeof claims.sid !== 'string' || !(await sessionIsLive(id, claims.sid))) return null;
      return user;
    },

    /**
     * Whether a genuine access token (signed by us, unexpired) belongs to a suspended user: the
     * refusal can then say why instead of only 'Unauthenticated.'.
     */
    async heldBySuspendedUser(token: string): Promise<boolean> {
      let claims: AccessClaims;
      try {
        claims = jwt.verify(token, env().JWT_SECRET, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE }) as unknown as AccessClaims;
      } catch {
        return false;
      }
      const id = Number(claims.sub);
      if (!Number.isInteger(id)) return false;
      const user = await strapi.plugin('branchify').service('users').findRecord(id);
      return user?.status === 'suspended';
    },

    /** Whether a refresh token we issued (revoked or not) belongs to a suspended user. */
    async ownedBySuspendedUser(raw: string): Promise<boolean> {
      const record = await refreshTokens().findOne({ where: { token_hash: sha256(raw) } });
      if (!record) return false;
      const user = await strapi.plugin('branchify').service('users').findRecord(record.user_id);
      return user?.status === 'suspended';
    },

    /**
     * Exchanges a refresh token for a new pair. Returns null when the token is unknown, expired,
     * revoked, or already rotated (reuse: the family is revoked, unless it is the benign race of
     * two tabs within the grace window).
     */
    async rotate(raw: string, meta: RequestMeta): Promise<Rotation> {
      const record = await refreshTokens().findOne({ where: { token_hash: sha256(raw) } });
      if (!record || record.revoked_at) return REFUSED;
      if (record.rotated_at) {
        if (Date.now() - new Date(record.rotated_at).getTime() <= ROTATION_GRACE_MS) return { refused: 'grace' };
        strapi.log.warn(`[auth] refresh token reuse for user ${record.user_id}; revoking its session family`);
        await revokeFamily(record.family);
        return REFUSED;
      }
      if (record.expires_at && new Date(record.expires_at).getTime() < Date.now()) return REFUSED;

      // Claim the token atomically: of two concurrent rotations only one updates the row.
      const claimed = await refreshTokens().updateMany({
        where: { id: record.id, rotated_at: null, revoked_at: null },
        data: { rotated_at: new Date() },
      });
      if (!claimed.count) return { refused: 'grace' };

      const user = await strapi.plugin('branchify').service('users').findRecord(record.user_id);
      if (!user || user.status !== 'active') {
        await revokeFamily(record.family);
        return REFUSED;
      }
      return { user, tokens: await issue(user, meta, record.family) };
    },

    async revoke(raw: string): Promise<void> {
      const record = await refreshTokens().findOne({ where: { token_hash: sha256(raw) } });
      if (record) await revokeFamily(record.family);
    },

    async revokeAllForUser(userId: number): Promise<void> {
      await refreshTokens().updateMany({ where: { user_id: userId, revoked_at: null }, data: { revoked_at: new Date() } });
    },

    async deleteAllForUser(userId: number): Promise<void> {
      await refreshTokens().deleteMany({ where: { user_id: userId } });
    },
  };
};
