'use strict';
/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` bodies (and GET query strings)
 * whose keys carry nested brackets, e.g. `items[0][price]=price_1`, `expand[]=latest_invoice`,
 * `metadata[plan]=7`, `created[gte]=1700000000`. Numeric (or empty) brackets make arrays.
 */

/** @param {string} key @returns {string[]} `a[b][0][]` → ['a', 'b', '0', ''] */
function splitKey(key) {
  const first = key.indexOf('[');
  if (first <= 0) return [key];
  const parts = [key.slice(0, first)];
  const re = /\[([^\]]*)\]/g;
  let m;
  while ((m = re.exec(key.slice(first)))) parts.push(m[1]);
  return parts;
}

const isIndex = (/** @type {string} */ s) => s === '' || /^\d+$/.test(s);

/** Turns objects whose keys are all indices into arrays (in index order), recursively. */
function arrayify(/** @type {any} */ value) {
  if (!value || typeof value !== 'object') return value;
  for (const k of Object.keys(value)) value[k] = arrayify(value[k]);
  if (value.__array) {
    delete value.__array;
    const keys = Object.keys(value);
    if (keys.every((k) => /^\d+$/.test(k) || k.startsWith('__push'))) {
      return keys
        .sort((a, b) => (a.startsWith('__push') ? Number(a.slice(6)) + 1e9 : Number(a)) - (b.startsWith('__push') ? Number(b.slice(6)) + 1e9 : Number(b)))
        .map((k) => value[k]);
    }
  }
  return value;
}

/**
 * Parses a form-encoded string into nested objects and arrays (all leaves are strings, as Stripe
 * receives them). Later duplicates of a scalar key win.
 * @param {string} text
 * @returns {Record<string, any>}
 */
function parseForm(text) {
  /** @type {Record<string, any>} */
  const root = {};
  if (!text) return root;
  let push = 0;
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    const parts = splitKey(key);
    /** @type {any} */
    let node = root;
    for (let i = 0; i < parts.length; i += 1) {
      let part = parts[i];
      const last = i === parts.length - 1;
      if (i > 0 && isIndex(part)) {
        node.__array = true;
        if (part === '') part = `__push${push++}`;
      }
      if (last) {
        node[part] = value;
      } else {
        if (!node[part] || typeof node[part] !== 'object') node[part] = {};
        node = node[part];
      }
    }
  }
  return arrayify(root);
}

module.exports = { parseForm };
