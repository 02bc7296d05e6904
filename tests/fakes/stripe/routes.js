'use strict';
/**
 * The REST surface: `[method, path pattern, handler]`. Handlers get the parsed params (form body
 * or query string) and return the Stripe object to answer with; `expand[]` and list paging are
 * applied here the way Stripe applies them.
 */
const { invalid, missing, StripeError } = require('./errors');
const { toInt } = require('./billing');
const objects = require('./objects');

/** @typedef {Record<string, any>} Obj */
/** @typedef {import('./billing').Billing} Billing */
/** @typedef {(b: Billing, p: Obj, m: string[]) => Obj} Handler */

/**
 * Stripe's list envelope with `limit` (1–100, default 10), `starting_after`, `ending_before`.
 * @param {Obj[]} items newest first
 */
function page(items, /** @type {Obj} */ p, /** @type {string} */ url) {
  const limit = toInt(p.limit, 'limit') ?? 10;
  if (limit < 1 || limit > 100) throw invalid('Invalid limit: must be between 1 and 100', 'limit');
  let start = 0;
  let end = items.length;
  if (p.starting_after) {
    const i = items.findIndex((o) => o.id === p.starting_after);
    if (i < 0) throw missing('object', p.starting_after, 'starting_after');
    start = i + 1;
  } else if (p.ending_before) {
    const i = items.findIndex((o) => o.id === p.ending_before);
    if (i < 0) throw missing('object', p.ending_before, 'ending_before');
    end = i;
    start = Math.max(0, end - limit);
  }
  const data = items.slice(start, Math.min(end, start + limit));
  return { object: 'list', data, has_more: start + data.length < end || (Boolean(p.ending_before) && start > 0), url };
}

/** `created[gte]=…` style range filters (also a bare `created=…`). */
function inRange(/** @type {number} */ value, /** @type {unknown} */ range) {
  if (range === undefined) return true;
  if (typeof range === 'string') return value === Number(range);
  const r = /** @type {Obj} */ (range);
  if (r.gt !== undefined && !(value > Number(r.gt))) return false;
  if (r.gte !== undefined && !(value >= Number(r.gte))) return false;
  if (r.lt !== undefined && !(value < Number(r.lt))) return false;
  if (r.lte !== undefined && !(value <= Number(r.lte))) return false;
  return true;
}

/** Fields Stripe only returns when expanded ("includable"), computed from the store. */
const INCLUDABLE = {
  invoice: {
    payments: (/** @type {Billing} */ b, /** @type {Obj} */ inv) =>
      objects.list(
        b.store.all('invoice_payment', (x) => x.invoice === inv.id),
        `/v1/invoices/${inv.id}/payments`,
      ),
    confirmation_secret: (/** @type {Billing} */ b, /** @type {Obj} */ inv) => {
      const pi = inv.status === 'open' ? b.paymentOf(inv)?.pi : null;
      return pi ? { client_secret: pi.client_secret, type: 'payment_intent' } : null;
    },
    // Older API versions' field, still accepted in expand paths such as latest_invoice.payment_intent.
    payment_intent: (/** @type {Billing} */ b, /** @type {Obj} */ inv) => b.paymentOf(inv)?.pi?.id ?? null,
  },
};

/** Applies one dotted expand path in place (`data.` walks lists). */
function expandPath(/** @type {Billing} */ b, /** @type {any} */ node, /** @type {string[]} */ parts, /** @type {string} */ full) {
  if (!node || typeof node !== 'object' || !parts.length) return;
  const [head, ...rest] = parts;
  if (Array.isArray(node)) {
    for (const item of node) expandPath(b, item, parts, full);
    return;
  }
  if (node.object === 'list' && head === 'data') {
    for (const item of node.data) expandPath(b, item, rest, full);
    return;
  }
  let value = node[head];
  if (value === undefined) {
    const include = /** @type {Obj} */ (INCLUDABLE)[node.object]?.[head];
    if (!include) throw invalid(`This property cannot be expanded (${full}).`, 'expand');
    value = node[head] = include(b, node);
  }
  if (typeof value === 'string') {
    const found = b.store.get(value);
    if (!found) throw invalid(`This property cannot be expanded (${full}).`, 'expand');
    value = node[head] = objects.clone(found);
  }
  expandPath(b, value, rest, full);
}

/** A response copy with `expand[]` applied. */
function render(/** @type {Billing} */ b, /** @type {Obj} */ obj, /** @type {unknown} */ expand) {
  const out = objects.clone(obj);
  const paths = Array.isArray(expand) ? expand : typeof expand === 'string' ? [expand] : [];
  for (const path of paths) expandPath(b, out, String(path).split('.'), String(path));
  return out;
}

const list =
  (/** @type {string} */ object, /** @type {string} */ url, /** @type {(o: Obj, p: Obj) => boolean} */ where = () => true) =>
  (/** @type {Billing} */ b, /** @type {Obj} */ p) =>
    page(
      b.store.all(object, (o) => where(o, p) && inRange(o.created, p.created)),
      p,
      url,
    );

/** @type {Array<[string, RegExp, Handler]>} */
const ROUTES = [
  // customers
  ['POST', /^\/v1\/customers$/, (b, p) => b.createCustomer(p)],
  ['GET', /^\/v1\/customers$/, list('customer', '/v1/customers', (o, p) => !o.deleted && (!p.email || o.email === p.email))],
  ['GET', /^\/v1\/customers\/([^/]+)$/, (b, _p, m) => b.customer(m[1])],
  ['POST', /^\/v1\/customers\/([^/]+)$/, (b, p, m) => b.updateCustomer(m[1], p)],
  [
    'DELETE',
    /^\/v1\/customers\/([^/]+)$/,
    (b, _p, m) => {
      const c = b.customer(m[1]);
      c.deleted = true;
      b.emit('customer.deleted', c);
      return { id: c.id, object: 'customer', deleted: true };
    },
  ],
  [
    'GET',
    /^\/v1\/customers\/([^/]+)\/payment_methods$/,
    (b, p, m) =>
      page(
        b.store.all('payment_method', (o) => o.customer === b.customer(m[1]).id && (!p.type || o.type === p.type)),
        p,
        `/v1/customers/${m[1]}/payment_methods`,
      ),
  ],

  // payment methods
  ['POST', /^\/v1\/payment_methods$/, (b, p) => b.createPaymentMethod(p)],
  [
    'GET',
    /^\/v1\/payment_methods$/,
    list('payment_method', '/v1/payment_methods', (o, p) => Boolean(p.customer) && o.customer === p.customer && (!p.type || o.type === p.type)),
  ],
  ['GET', /^\/v1\/payment_methods\/([^/]+)$/, (b, _p, m) => b.retrievePaymentMethod(m[1])],
  [
    'POST',
    /^\/v1\/payment_methods\/([^/]+)\/attach$/,
    (b, p, m) => {
      if (!p.customer) throw invalid('Missing required param: customer.', 'customer', 'parameter_missing');
      return b.attachPaymentMethod(m[1], p.customer);
    },
  ],
  ['POST', /^\/v1\/payment_methods\/([^/]+)\/detach$/, (b, _p, m) => b.detachPaymentMethod(m[1])],

  // products & prices
  ['POST', /^\/v1\/products$/, (b, p) => b.createProduct(p)],
  ['GET', /^\/v1\/products$/, list('product', '/v1/products')],
  [
    'GET',
    /^\/v1\/products\/([^/]+)$/,
    (b, _p, m) =>
      b.store.get(m[1], 'product') ??
      (() => {
        throw missing('product', m[1]);
      })(),
  ],
  ['POST', /^\/v1\/prices$/, (b, p) => b.createPrice(p)],
  [
    'GET',
    /^\/v1\/prices$/,
    list('price', '/v1/prices', (o, p) => (!p.product || o.product === p.product) && (p.active === undefined || String(o.active) === p.active)),
  ],
  ['GET', /^\/v1\/prices\/([^/]+)$/, (b, _p, m) => b.price(m[1], 'id')],
  [
    'POST',
    /^\/v1\/prices\/([^/]+)$/,
    (b, p, m) => {
      const price = b.price(m[1], 'id');
      if (p.active !== undefined) price.active = p.active === 'true';
      if (p.metadata !== undefined) price.metadata = require('./billing').mergeMetadata(price.metadata, p.metadata);
      b.emit('price.updated', price);
      return price;
    },
  ],

  // subscriptions
  ['POST', /^\/v1\/subscriptions$/, (b, p) => b.createSubscription(p)],
  [
    'GET',
    /^\/v1\/subscriptions$/,
    list(
      'subscription',
      '/v1/subscriptions',
      (o, p) => (!p.customer || o.customer === p.customer) && (p.status === 'all' || (p.status ? o.status === p.status : o.status !== 'canceled')),
    ),
  ],
  ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (b, _p, m) => b.subscription(m[1])],
  ['POST', /^\/v1\/subscriptions\/([^/]+)$/, (b, p, m) => b.updateSubscription(b.subscription(m[1]), p)],
  ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (b, p, m) => b.cancelSubscription(b.subscription(m[1]), p)],

  // invoices
  ['POST', /^\/v1\/invoices$/, (b, p) => b.createInvoice(p)],
  [
    'GET',
    /^\/v1\/invoices$/,
    list(
      'invoice',
      '/v1/invoices',
      (o, p) =>
        (!p.customer || o.customer === p.customer) &&
        (!p.subscription || o.parent?.subscription_details?.subscription === p.subscription) &&
        (!p.status || o.status === p.status),
    ),
  ],
  ['GET', /^\/v1\/invoices\/([^/]+)$/, (b, _p, m) => b.invoice(m[1])],
  ['GET', /^\/v1\/invoices\/([^/]+)\/lines$/, (b, p, m) => page([...b.invoice(m[1]).lines.data], p, `/v1/invoices/${m[1]}/lines`)],
  [
    'POST',
    /^\/v1\/invoices\/([^/]+)$/,
    (b, p, m) => {
      const inv = b.invoice(m[1]);
      if (p.metadata !== undefined) inv.metadata = require('./billing').mergeMetadata(inv.metadata, p.metadata);
      if (p.description !== undefined) inv.description = p.description || null;
      if (p.default_payment_method !== undefined)
        inv.default_payment_method = p.default_payment_method
          ? b.resolvePaymentMethod(p.default_payment_method, inv.customer, 'default_payment_method').id
          : null;
      b.emit('invoice.updated', inv);
      return inv;
    },
  ],
  ['POST', /^\/v1\/invoices\/([^/]+)\/finalize$/, (b, _p, m) => b.finalizeInvoice(b.invoice(m[1]))],
  ['POST', /^\/v1\/invoices\/([^/]+)\/pay$/, (b, p, m) => b.payInvoice(b.invoice(m[1]), p)],
  ['POST', /^\/v1\/invoices\/([^/]+)\/void$/, (b, _p, m) => b.voidInvoice(b.invoice(m[1]))],
  [
    'GET',
    /^\/v1\/invoices\/([^/]+)\/payments$/,
    (b, p, m) =>
      page(
        b.store.all('invoice_payment', (x) => x.invoice === b.invoice(m[1]).id),
        p,
        `/v1/invoices/${m[1]}/payments`,
      ),
  ],
  [
    'GET',
    /^\/v1\/invoice_payments$/,
    (b, p) => {
      if (!p.invoice && !p.payment) throw invalid('Missing required param: invoice.', 'invoice', 'parameter_missing');
      return page(
        b.store.all(
          'invoice_payment',
          (x) =>
            (!p.invoice || x.invoice === p.invoice) &&
            (!p.payment?.payment_intent || x.payment.payment_intent === p.payment.payment_intent) &&
            (!p.status || x.status === p.status),
        ),
        p,
        '/v1/invoice_payments',
      );
    },
  ],
  [
    'GET',
    /^\/v1\/invoice_payments\/([^/]+)$/,
    (b, _p, m) =>
      b.store.get(m[1], 'invoice_payment') ??
      (() => {
        throw missing('invoice_payment', m[1]);
      })(),
  ],

  // invoice items
  ['POST', /^\/v1\/invoiceitems$/, (b, p) => b.createInvoiceItem(p)],
  [
    'GET',
    /^\/v1\/invoiceitems$/,
    list(
      'invoiceitem',
      '/v1/invoiceitems',
      (o, p) =>
        (!p.customer || o.customer === p.customer) &&
        (!p.invoice || o.invoice === p.invoice) &&
        (p.pending === undefined || (p.pending === 'true') === !o.invoice),
    ),
  ],
  [
    'GET',
    /^\/v1\/invoiceitems\/([^/]+)$/,
    (b, _p, m) =>
      b.store.get(m[1], 'invoiceitem') ??
      (() => {
        throw missing('invoiceitem', m[1]);
      })(),
  ],

  // payments
  ['GET', /^\/v1\/payment_intents$/, list('payment_intent', '/v1/payment_intents', (o, p) => !p.customer || o.customer === p.customer)],
  [
    'GET',
    /^\/v1\/payment_intents\/([^/]+)$/,
    (b, _p, m) =>
      b.store.get(m[1], 'payment_intent') ??
      (() => {
        throw missing('payment_intent', m[1]);
      })(),
  ],
  [
    'GET',
    /^\/v1\/charges$/,
    list('charge', '/v1/charges', (o, p) => (!p.customer || o.customer === p.customer) && (!p.payment_intent || o.payment_intent === p.payment_intent)),
  ],
  [
    'GET',
    /^\/v1\/charges\/([^/]+)$/,
    (b, _p, m) =>
      b.store.get(m[1], 'charge') ??
      (() => {
        throw missing('charge', m[1]);
      })(),
  ],
  ['POST', /^\/v1\/refunds$/, (b, p) => b.createRefund(p)],
  [
    'GET',
    /^\/v1\/refunds$/,
    list('refund', '/v1/refunds', (o, p) => (!p.charge || o.charge === p.charge) && (!p.payment_intent || o.payment_intent === p.payment_intent)),
  ],
  [
    'GET',
    /^\/v1\/refunds\/([^/]+)$/,
    (b, _p, m) =>
      b.store.get(m[1], 'refund') ??
      (() => {
        throw missing('refund', m[1]);
      })(),
  ],

  // events
  [
    'GET',
    /^\/v1\/events$/,
    (b, p) => {
      const types = p.types ?? (p.type ? [p.type] : null);
      const match = (/** @type {string} */ t) => !types || types.some((/** @type {string} */ x) => (x.endsWith('.*') ? t.startsWith(x.slice(0, -1)) : t === x));
      return page(
        [...b.store.events].reverse().filter((e) => match(e.type) && inRange(e.created, p.created)),
        p,
        '/v1/events',
      );
    },
  ],
  [
    'GET',
    /^\/v1\/events\/([^/]+)$/,
    (b, _p, m) =>
      b.store.get(m[1], 'event') ??
      (() => {
        throw missing('event', m[1]);
      })(),
  ],

  // Connect OAuth (connect.stripe.com)
  ['POST', /^\/oauth\/token$/, (b, p) => b.oauthToken(p)],
  [
    'POST',
    /^\/oauth\/deauthorize$/,
    (b, p) => {
      if (!p.stripe_user_id) throw invalid('Missing required param: stripe_user_id.', 'stripe_user_id');
      const account = b.deauthorize(p.stripe_user_id, p.client_id ?? null);
      if (!account)
        throw new StripeError(
          400,
          /** @type {any} */ ({
            type: 'invalid_request_error',
            message: `No such account: ${p.stripe_user_id}`,
            error: 'invalid_client',
            error_description: `This application is not connected to stripe account ${p.stripe_user_id}, or that account does not exist.`,
          }),
        );
      return { stripe_user_id: account.id };
    },
  ],
];

/** @returns {{ handler: Handler, match: string[] } | null} */
function route(/** @type {string} */ method, /** @type {string} */ path) {
  for (const [m, re, handler] of ROUTES) {
    if (m !== method) continue;
    const match = re.exec(path);
    if (match) return { handler, match: match.map((s) => (s === undefined ? s : decodeURIComponent(s))) };
  }
  return null;
}

module.exports = { route, render, page };
