import { env } from '@branchify/shared/node';
import { hmac, randomToken, safeEqual } from '../auth/crypto';

const TTL_SECONDS = 15 * 60;
const key = () => hmac(env().APP_KEYS[0]!, 'branchify:stripe-connect-state');

/** The OAuth `state`: who started the connection and until when, signed so it cannot be forged. */
export const signState = (adminId: number): string => {
  const body = Buffer.from(JSON.stringify({ a: adminId, e: Math.floor(Date.now() / 1000) + TTL_SECONDS, n: randomToken(8) })).toString('base64url');
  return `${body}.${hmac(key(), body)}`;
};

export const verifyState = (state: string): { adminId: number } | null => {
  const [body, signature] = state.split('.');
  if (!body || !signature || !safeEqual(hmac(key(), body), signature)) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { a: number; e: number };
    return claims.e * 1000 > Date.now() ? { adminId: claims.a } : null;
  } catch {
    return null;
  }
};
