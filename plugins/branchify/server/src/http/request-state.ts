import type { Context } from 'koa';
import type { UserRecord } from '../content-types/users-permissions';
import { unauthenticated } from './errors';

/** `ctx.state`, typed once: what authentication leaves there for the route behind it. */
declare module 'koa' {
  interface DefaultState {
    /** The user whose access token middlewares/authenticate.ts accepted. */
    branchifyUser?: UserRecord;
    /** The session that token was issued to (null for tokens older than sessions). */
    branchifySession?: string | null;
    /** Strapi's API-token authentication (the integrator API): the token's id and name. */
    auth?: { credentials?: { id?: number; name?: string } };
  }
}

/** The user middlewares/authenticate.ts accepted for this request (401 when it did not run). */
export const signedInUser = (ctx: Context): UserRecord => {
  const user = ctx.state.branchifyUser;
  if (!user) throw unauthenticated();
  return user;
};

/** The session the signed-in user's access token belongs to (null for tokens older than sessions). */
export const signedInSession = (ctx: Context): string | null => {
  signedInUser(ctx);
  return ctx.state.branchifySession ?? null;
};
