import { env } from '@branchify/shared/node';
import jwt from 'jsonwebtoken';
import { randomToken, sha256 } from './crypto';
import { query, UID, type Strapi } from '../utils/strapi';
import { getService } from '../utils/services';
import type { RefreshTokenRow } from '../content-types/refresh-token';
import type { UserRecord } from '../content-types/users-permissions';

const ISSUER = 'branchify';
const AUDIENCE = 'branchify-api';
/**
 * A token rotated this recently may be exchanged again: two tabs restoring at once present the same
 * token, and a reload can cancel the answer that carried the new cookie. Neither is theft.
 */
const ROTATION_GRACE_MS = 10_000;

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

/** A refresh either rotates (a new pair in the same session), or is refused. */
type Rotation = { user: UserRecord; tokens: IssuedTokens; refused?: undefined } | { refused: 'invalid' };
const REFUSED = { refused: 'invalid' } as const;

export interface RequestMeta {
  ip?: string;
  userAgent?: string;
}

const refreshTokens = (strapi: Strapi) => query(strapi, UID.refreshToken);

const signAccess = (user: Pick<UserRecord, 'id' | 'token_version'>, family: string): string =>
  jwt.sign({ tv: user.token_version ?? 0, sid: family }, env().JWT_SECRET, {
    algorithm: 'HS256',
    subject: String(user.id),
    issuer: ISSUER,
    audience: AUDIENCE,
    expiresIn: env().ACCESS_TOKEN_TTL_SECONDS,
  });

const storeRefresh = async (strapi: Strapi, userId: number, family: string, meta: RequestMeta) => {
  const raw = randomToken(48);
  const expiresAt = new Date(Date.now() + env().REFRESH_TOKEN_TTL_DAYS * 86_400_000);
  await refreshTokens(strapi).create({
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

const issue = async (strapi: Strapi, user: UserRecord, meta: RequestMeta, family = randomToken(16)): Promise<IssuedTokens> => {
  const refresh = await storeRefresh(strapi, user.id, family, meta);
  return {
    access_token: signAccess(user, family),
    token_type: 'Bearer',
    expires_in: env().ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refresh.raw,
    refresh_expires_at: refresh.expiresAt,
  };
};

const sessionIsLive = async (strapi: Strapi, userId: number, family: string) =>
  Boolean(await refreshTokens(strapi).findOne({ where: { user_id: userId, family, revoked_at: null }, select: ['id'] }));

const revokeFamily = (strapi: Strapi, family: string) =>
  refreshTokens(strapi).updateMany({ where: { family, revoked_at: null }, data: { revoked_at: new Date() } });

/** A new pair in the token's session, for a user still allowed in (else the session ends). */
const reissue = async (strapi: Strapi, record: RefreshTokenRow, meta: RequestMeta): Promise<Rotation> => {
  const user = await getService(strapi, 'users').findRecord(record.user_id);
  if (!user || user.status !== 'active') {
    await revokeFamily(strapi, record.family);
    return REFUSED;
  }
  return { user, tokens: await issue(strapi, user, meta, record.family) };
};

/** The live user behind an access token, or null (any failure is simply "unauthenticated"). */
const authenticateAccessToken = async (strapi: Strapi, token: string): Promise<UserRecord | null> => {
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
  const user = await getService(strapi, 'users').findRecord(id);
  if (!user || user.status !== 'active' || (user.token_version ?? 0) !== claims.tv) return null;
  // Signing out (or any revocation of the session) ends its access tokens at once.
  if (typeof claims.sid !== 'string' || !(await sessionIsLive(strapi, id, claims.sid))) return null;
  return user;
};

/** Whether a genuine access token (signed by us, unexpired) belongs to a suspended user. */
const heldBySuspendedUser = async (strapi: Strapi, token: string): Promise<boolean> => {
  let claims: AccessClaims;
  try {
    claims = jwt.verify(token, env().JWT_SECRET, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE }) as unknown as AccessClaims;
  } catch {
    return false;
  }
  const id = Number(claims.sub);
  if (!Number.isInteger(id)) return false;
  const user = await getService(strapi, 'users').findRecord(id);
  return user?.status === 'suspended';
};

/** Whether a refresh token we issued (revoked or not) belongs to a suspended user. */
const ownedBySuspendedUser = async (strapi: Strapi, raw: string): Promise<boolean> => {
  const record = await refreshTokens(strapi).findOne({ where: { token_hash: sha256(raw) } });
  if (!record) return false;
  const user = await getService(strapi, 'users').findRecord(record.user_id);
  return user?.status === 'suspended';
};

/** Exchanges a refresh token for a new pair, or refuses it (see `rotate` below). */
const rotate = async (strapi: Strapi, raw: string, meta: RequestMeta): Promise<Rotation> => {
  const record = await refreshTokens(strapi).findOne({ where: { token_hash: sha256(raw) } });
  if (!record || record.revoked_at) return REFUSED;
  if (record.expires_at && new Date(record.expires_at).getTime() < Date.now()) return REFUSED;
  if (record.rotated_at) {
    if (Date.now() - new Date(record.rotated_at).getTime() <= ROTATION_GRACE_MS) return reissue(strapi, record, meta);
    strapi.log.warn(`[auth] refresh token reuse for user ${record.user_id}; revoking its session family`);
    await revokeFamily(strapi, record.family);
    return REFUSED;
  }
  // Claim the token atomically: of two concurrent rotations only one updates the row, and the
  // other is the grace case above.
  const claimed = await refreshTokens(strapi).updateMany({
    where: { id: record.id, rotated_at: null, revoked_at: null },
    data: { rotated_at: new Date() },
  });
  if (!claimed.count) {
    const now = await refreshTokens(strapi).findOne({ where: { id: record.id } });
    if (!now || now.revoked_at) return REFUSED;
  }
  return reissue(strapi, record, meta);
};

/**
 * Access tokens are short-lived JWTs carrying the user's token version (bumped on password
 * change/reset and suspension, which kills every outstanding token) and their session, so that
 * signing out ends them too. Refresh tokens are random,
 * stored hashed, rotated on every use; presenting a rotated one revokes its whole family.
 */
export default ({ strapi }: { strapi: Strapi }) => ({
  issue: (user: UserRecord, meta: RequestMeta, family?: string): Promise<IssuedTokens> => issue(strapi, user, meta, family),

  /** Whether the user's session (refresh family) is still signed in. */
  sessionIsLive: (userId: number, family: string) => sessionIsLive(strapi, userId, family),

  /** The session an access token that already passed `authenticateAccessToken` was issued to. */
  sessionOf(token: string): string | null {
    const claims = jwt.decode(token) as Partial<AccessClaims> | null;
    return typeof claims?.sid === 'string' ? claims.sid : null;
  },

  /** The live user behind an access token, or null (any failure is simply "unauthenticated"). */
  authenticateAccessToken(token: string): Promise<UserRecord | null> {
    return authenticateAccessToken(strapi, token);
  },

  /**
   * Whether a genuine access token (signed by us, unexpired) belongs to a suspended user: the
   * refusal can then say why instead of only 'Unauthenticated.'.
   */
  heldBySuspendedUser(token: string): Promise<boolean> {
    return heldBySuspendedUser(strapi, token);
  },

  /** Whether a refresh token we issued (revoked or not) belongs to a suspended user. */
  ownedBySuspendedUser(raw: string): Promise<boolean> {
    return ownedBySuspendedUser(strapi, raw);
  },

  /**
   * Exchanges a refresh token for a new pair. Refused when the token is unknown, expired,
   * or revoked. A token already rotated within the grace window gets another pair in the same
   * session (the other answer may never have reached the browser); later, presenting it again is
   * reuse and revokes the whole session.
   */
  rotate(raw: string, meta: RequestMeta): Promise<Rotation> {
    return rotate(strapi, raw, meta);
  },

  async revoke(raw: string): Promise<void> {
    const record = await refreshTokens(strapi).findOne({ where: { token_hash: sha256(raw) } });
    if (record) await revokeFamily(strapi, record.family);
  },

  async revokeAllForUser(userId: number): Promise<void> {
    await refreshTokens(strapi).updateMany({ where: { user_id: userId, revoked_at: null }, data: { revoked_at: new Date() } });
  },

  async deleteAllForUser(userId: number): Promise<void> {
    await refreshTokens(strapi).deleteMany({ where: { user_id: userId } });
  },
});
