import crypto from 'node:crypto';

/** The header receivers verify: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with the endpoint secret>`. */
export const SIGNATURE_HEADER = 'Branchify-Signature';

/** The purpose an endpoint's secret is sealed under in the database. */
export const SECRET_PURPOSE = 'webhooks.secret';

export const sign = (secret: string, body: string, timestamp: number): string =>
  `t=${timestamp},v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** A new endpoint secret: `whsec_` and 32 random bytes. */
export const newSecret = (): string => `whsec_${crypto.randomBytes(32).toString('base64url')}`;
