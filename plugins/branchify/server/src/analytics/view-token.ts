import crypto from 'node:crypto';
import { env } from '@branchify/shared/node';

/**
 * The view token: proof that the server started a view. `POST …/views` hands it out with the view;
 * interactions and view updates carry it back. It is HMAC-SHA256, under a key derived from
 * ENCRYPTION_KEY for this one use, over the funnel's id and the view's id, in base64url (43
 * characters): nothing is stored, and a token says nothing about any other view or funnel.
 */

/** The shape of a view token (32 bytes in base64url). */
export const VIEW_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

let derived: { from: string; key: Buffer } | undefined;
/** The signing key, derived once per ENCRYPTION_KEY (never the key itself, never shared with another use). */
const signingKey = (): Buffer => {
  const secret = env().ENCRYPTION_KEY;
  if (derived?.from !== secret) derived = { from: secret, key: Buffer.from(crypto.hkdfSync('sha256', secret, 'branchify-view-token', 'view-token', 32)) };
  return derived.key;
};

/** The token of a view of a funnel (view ids are lowercase UUIDs, as ingest stores them). */
export const signView = (funnelId: number, viewId: string): string =>
  crypto.createHmac('sha256', signingKey()).update(`${funnelId}:${viewId}`).digest('base64url');

/** Whether `token` is the token of that view of that funnel (constant-time comparison). */
export const isViewToken = (funnelId: number, viewId: string, token: string): boolean => {
  const expected = Buffer.from(signView(funnelId, viewId));
  const given = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
};
