import { SESSION_HINT_COOKIE } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import type { Context } from 'koa';

const REFRESH_COOKIE = 'branchify_refresh';
const COOKIE_PATH = '/api/auth';

/** Cookies are Secure when the app is reached over https (PUBLIC_URL), not when a header says so. */
const secureCookies = (): boolean => env().PUBLIC_URL.startsWith('https://');

/**
 * Beside the refresh cookie, with the same lifetime: a readable '1' on the whole site, so the web
 * app asks to refresh a session only when there may be one (it carries nothing secret).
 */
const setSessionHint = (ctx: Context, expires: Date): void => {
  ctx.cookies.set(SESSION_HINT_COOKIE, expires.getTime() > 0 ? '1' : '', {
    httpOnly: false,
    sameSite: 'lax',
    secure: secureCookies(),
    path: '/',
    expires,
    overwrite: true,
    signed: false,
  });
};

/** The rotating refresh token travels only in an httpOnly, SameSite=Lax cookie scoped to /api/auth. */
export const setRefreshCookie = (ctx: Context, token: string, expires: Date): void => {
  ctx.cookies.set(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(),
    path: COOKIE_PATH,
    expires,
    overwrite: true,
    signed: false,
  });
  setSessionHint(ctx, expires);
};

export const clearRefreshCookie = (ctx: Context): void => {
  ctx.cookies.set(REFRESH_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(),
    path: COOKIE_PATH,
    expires: new Date(0),
    overwrite: true,
    signed: false,
  });
  setSessionHint(ctx, new Date(0));
};

export const readRefreshCookie = (ctx: Context): string | undefined => ctx.cookies.get(REFRESH_COOKIE, { signed: false }) || undefined;
