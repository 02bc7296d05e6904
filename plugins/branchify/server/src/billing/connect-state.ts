import { env } from '@branchify/shared/node';
import type { Context } from 'koa';
import { randomToken, safeEqual, sha256 } from '../auth/crypto';
import { query, UID, type Strapi } from '../utils/strapi';

/** How long an admin has to come back from Stripe. */
const TTL_MS = 10 * 60_000;
/** The cookie naming the browser a state was handed to; sent only to the callback. */
const CONNECT_COOKIE = 'branchify_stripe_connect';
const COOKIE_PATH = '/api/stripe/oauth';

/** Who started a Connect round trip, once its state has been checked and used up. */
export interface ConnectStarter {
  adminId: number;
  sessionFamily: string;
}

export type StateRefusal = 'unknown' | 'expired' | 'other-browser';

const cookieOptions = (expires: Date) => ({
  httpOnly: true,
  // Stripe sends the admin back with a top-level GET: Lax cookies go with it, cross-site posts do not.
  sameSite: 'lax' as const,
  secure: env().PUBLIC_URL.startsWith('https://'),
  path: COOKIE_PATH,
  expires,
  overwrite: true,
  signed: false,
});

/**
 * The Stripe Connect OAuth `state`: a random value stored hashed with the admin and the session
 * that asked for it, the browser it was handed to (the hash of a cookie set on that browser), and
 * a short expiry. The callback uses it up in one conditional delete, so it works once, only in the
 * browser that started it, and only for a while.
 */
export const connectStates = (strapi: Strapi) => {
  const rows = () => query(strapi, UID.stripeConnectState);

  return {
    /** A new state for the admin's session; the browser's cookie is set on `ctx`. */
    async issue(ctx: Context, starter: ConnectStarter): Promise<string> {
      const state = randomToken(32);
      const browser = randomToken(32);
      const expires = new Date(Date.now() + TTL_MS);
      // Round trips never finished are of no use to anyone.
      await rows().deleteMany({ where: { expires_at: { $lt: new Date() } } });
      await rows().create({
        data: {
          state_hash: sha256(state),
          browser_hash: sha256(browser),
          admin_id: starter.adminId,
          session_family: starter.sessionFamily,
          expires_at: expires,
        },
      });
      ctx.cookies.set(CONNECT_COOKIE, browser, cookieOptions(expires));
      return state;
    },

    /**
     * Uses the state up (whatever follows, it never works again) and says who started it, or why
     * it is refused: unknown (forged, or used already), expired, or brought by another browser.
     * The browser's cookie is cleared either way.
     */
    async consume(ctx: Context, state: string | null): Promise<ConnectStarter | StateRefusal> {
      const browser = ctx.cookies.get(CONNECT_COOKIE, { signed: false }) ?? '';
      ctx.cookies.set(CONNECT_COOKIE, '', cookieOptions(new Date(0)));
      if (!state) return 'unknown';
      const hash = sha256(state);
      const row = await rows().findOne({ where: { state_hash: hash } });
      // Of two callbacks with one state, only the one whose delete removed the row goes on.
      if (!row || (await rows().deleteMany({ where: { id: row.id, state_hash: hash } })).count !== 1) return 'unknown';
      if (!row.expires_at || new Date(row.expires_at).getTime() <= Date.now()) return 'expired';
      if (!browser || !safeEqual(sha256(browser), row.browser_hash)) return 'other-browser';
      return { adminId: row.admin_id, sessionFamily: row.session_family };
    },
  };
};
