import crypto from 'node:crypto';

/**
 * The Standard Webhooks headers (standardwebhooks.com), which its maintained verifiers check:
 * the message id (the event's, the same on every retry), the send time in unix seconds, and
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the secret's bytes.
 */
const STANDARD_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

/** The earlier header, still sent for receivers built on it: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` keyed with the secret as text. */
export const SIGNATURE_HEADER = 'Branchify-Signature';

/** The purpose an endpoint's secret is sealed under in the database. */
export const SECRET_PURPOSE = 'webhooks.secret';

export const sign = (secret: string, body: string, timestamp: number): string =>
  `t=${timestamp},v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** The secret's key bytes: what follows `whsec_`, base64 (secrets made before Standard Webhooks were base64url; Node reads both). */
const keyOf = (secret: string): Buffer => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

const standardSignature = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${crypto.createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;

/** The three Standard Webhooks headers of one attempt. */
export const standardHeaders = (secret: string, id: string, timestamp: number, body: string): Record<string, string> => ({
  [STANDARD_HEADERS.id]: id,
  [STANDARD_HEADERS.timestamp]: String(timestamp),
  [STANDARD_HEADERS.signature]: standardSignature(secret, id, timestamp, body),
});

/** A new endpoint secret: `whsec_` and 32 random bytes in standard base64, as Standard Webhooks' libraries read it. */
export const newSecret = (): string => `whsec_${crypto.randomBytes(32).toString('base64')}`;
