'use strict';
const nodeCrypto = require('node:crypto');

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random base62 string of `length` characters. */
const random = (length = 24) => {
  const bytes = nodeCrypto.randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHABET[bytes[i] % ALPHABET.length];
  return out;
};

/** Stripe-looking ids: `cus_QXg1o8vcGmoR32`, `pi_3Pgc…`. */
const newId = (/** @type {string} */ prefix, length = prefix === 'cus' || prefix === 'prod' || prefix === 'si' || prefix === 'acct' ? 14 : 24) =>
  `${prefix}_${random(length)}`;

const now = () => Math.floor(Date.now() / 1000);

module.exports = { newId, random, now };
