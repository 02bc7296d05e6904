import crypto from 'node:crypto';

export const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');
export const sha1 = (value: string): string => crypto.createHash('sha1').update(value).digest('hex');
export const randomToken = (bytes = 32): string => crypto.randomBytes(bytes).toString('base64url');

export const hmac = (key: string, value: string): string => crypto.createHmac('sha256', key).update(value).digest('hex');

/** Constant-time comparison of two hex/ascii strings. */
export const safeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
};
