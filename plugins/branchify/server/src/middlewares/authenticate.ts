import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { forbidden, unauthenticated } from '../http/errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';

export interface AuthenticateConfig {
  /** Only admins (403 for everyone else). */
  admin?: boolean;
  /** Only users whose email is verified (admins always are). */
  verified?: boolean;
}

/**
 * Route middleware: resolves the bearer access token to a live user. A missing, invalid or
 * expired token, a deleted user, or a token issued before the user's last password change all
 * answer 401 'Unauthenticated.'; a genuine token of a suspended user answers 401 with the reason,
 * so the app can tell the user why they were signed out.
 */
export default (config: AuthenticateConfig = {}, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    const header = ctx.get('authorization');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw unauthenticated();
    const tokens = getService(strapi, 'tokens');
    const user = await tokens.authenticateAccessToken(match[1]!);
    if (!user) throw (await tokens.heldBySuspendedUser(match[1]!)) ? unauthenticated(MESSAGES.accountSuspended) : unauthenticated();
    if (config.admin && !user.is_admin) throw forbidden(MESSAGES.unauthorized);
    if (config.verified && !user.is_admin && !user.email_verified_at) throw forbidden(MESSAGES.emailNotVerified);
    ctx.state.branchifyUser = user;
    // The session the token belongs to (what an action bound to the signed-in session records).
    ctx.state.branchifySession = getService(strapi, 'tokens').sessionOf(match[1]!);
    return next();
  };
