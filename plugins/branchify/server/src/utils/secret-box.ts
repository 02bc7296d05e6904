import crypto from 'node:crypto';
import { env } from '@branchify/shared/node';

const VERSION = 'v1';

/** A 256-bit key derived from ENCRYPTION_KEY for one purpose, so keys are never reused across uses. */
const keyFor = (purpose: string): Buffer => Buffer.from(crypto.hkdfSync('sha256', env().ENCRYPTION_KEY, 'branchify-secret-box', purpose, 32));

/**
 * Encrypts a secret for storage (AES-256-GCM, random IV, authenticated): `v1.<iv>.<tag>.<data>`
 * in base64url. `purpose` binds the ciphertext to one use (e.g. 'stripe.secret').
 */
export const seal = (plain: string, purpose: string): string => {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyFor(purpose), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
};

/** Decrypts what `seal` produced; throws if it was tampered with or sealed under another key. */
export const unseal = (sealed: string, purpose: string): string => {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('Unrecognised sealed secret');
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyFor(purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
};
