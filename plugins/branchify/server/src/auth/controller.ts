import { MESSAGES, changePasswordSchema, forgotSchema, loginSchema, registerSchema, resetSchema, verifyEmailSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { unauthenticated } from '../http/errors';
import { created, ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { IssuedTokens } from './tokens';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './cookies';
import type { UserRecord } from '../content-types/users-permissions';
import { signedInUser } from '../http/request-state';

const meta = (ctx: Context) => ({ ip: ctx.ip, userAgent: ctx.get('user-agent') });

/** Sets the refresh cookie and returns the body part clients read (never the refresh token). */
const session = (ctx: Context, tokens: IssuedTokens) => {
  setRefreshCookie(ctx, tokens.refresh_token, tokens.refresh_expires_at);
  return { access_token: tokens.access_token, token_type: tokens.token_type, expires_in: tokens.expires_in };
};

export default ({ strapi }: { strapi: Strapi }) => {
  const auth = () => getService(strapi, 'auth');
  const present = (user: UserRecord) => getService(strapi, 'users-presenter').present(user);

  return {
    async register(ctx: Context) {
      const input = parse(registerSchema, ctx.request.body);
      const { user, tokens } = await auth().register(input, meta(ctx));
      created(ctx, { ...session(ctx, tokens), user: await present(user) }, MESSAGES.accountCreated);
    },

    async login(ctx: Context) {
      const { email, password } = parse(loginSchema, ctx.request.body);
      const { user, tokens } = await auth().login(email, password, meta(ctx));
      ok(ctx, { ...session(ctx, tokens), user: await present(user) }, MESSAGES.welcomeBack);
    },

    async me(ctx: Context) {
      ok(ctx, await present(signedInUser(ctx)));
    },

    async changePassword(ctx: Context) {
      const input = parse(changePasswordSchema, ctx.request.body);
      await auth().changePassword(signedInUser(ctx), input.current_password, input.password);
      clearRefreshCookie(ctx);
      ok(ctx, null, MESSAGES.passwordChanged);
    },

    async sendVerificationEmail(ctx: Context) {
      await auth().sendVerification(signedInUser(ctx));
      ok(ctx, null, MESSAGES.verificationLinkSent);
    },

    async verifyEmail(ctx: Context) {
      const user = await auth().verifyEmail(parse(verifyEmailSchema, ctx.request.body));
      ok(ctx, await present(user), MESSAGES.accountVerified);
    },

    async forgotPassword(ctx: Context) {
      const { email } = parse(forgotSchema, ctx.request.body);
      await auth().forgotPassword(email);
      ok(ctx, null, MESSAGES.passwordResetLinkSent);
    },

    async resetPassword(ctx: Context) {
      const input = parse(resetSchema, ctx.request.body);
      await auth().resetPassword(input.email, input.token, input.password);
      ok(ctx, null, MESSAGES.passwordUpdated);
    },

    async logout(ctx: Context) {
      const raw = readRefreshCookie(ctx);
      if (raw) await getService(strapi, 'tokens').revoke(raw);
      clearRefreshCookie(ctx);
      ok(ctx, null, MESSAGES.loggedOut);
    },

    async refresh(ctx: Context) {
      const raw = readRefreshCookie(ctx);
      const rotated = raw ? await getService(strapi, 'tokens').rotate(raw, meta(ctx)) : ({ refused: 'invalid' } as const);
      if (rotated.refused) {
        clearRefreshCookie(ctx);
        // The session ended because the account was suspended: the answer says so.
        if (raw && (await getService(strapi, 'tokens').ownedBySuspendedUser(raw))) {
          throw unauthenticated(MESSAGES.accountSuspended);
        }
        throw unauthenticated();
      }
      ok(ctx, { ...session(ctx, rotated.tokens), user: await present(rotated.user) }, MESSAGES.tokenRefreshed);
    },
  };
};
