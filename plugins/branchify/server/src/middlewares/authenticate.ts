import { MESSAGES } from '@branchify/shared';
import type { Context, Next } from 'koa';
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
 * expired token, a deleted or suspended user, or a token issued before the user's last password
 * change all answer 401 'Unauthenticated.'.
 */
export default (config: AuthenticateConfig = {}, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    const header = ctx.get('authorization');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw unauthenticated();
    const user = await getService(strapi, 'tokens').authenticateAccessToken(match[1]!);
    if (!user) throw unauthenticated();
    if (config.admin && !user.is_admin) throw forbidden(MESSAGES.unauthorized);
    if (config.verified && !user.is_admin && !user.email_verified_at) throw forbidden(MESSAGES.emailNotVerified);
    ctx.state.branchifyUser = user;
    // The session the token belongs to (what an action bound to the signed-in session records).
    ctx.state.branchifySession = getService(strapi, 'tokens').sessionOf(match[1]!);
    return next();
  };
