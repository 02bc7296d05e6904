import { env } from '@branchify/shared/node';
import type { Context } from 'koa';

export const REFRESH_COOKIE = 'branchify_refresh';
const COOKIE_PATH = '/api/auth';

/** Cookies are Secure when the app is reached over https (PUBLIC_URL), not when a header says so. */
const secureCookies = (): boolean => env().PUBLIC_URL.startsWith('https://');

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
};

export const readRefreshCookie = (ctx: Context): string | undefined => ctx.cookies.get(REFRESH_COOKIE, { signed: false }) || undefined;
