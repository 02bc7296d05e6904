'use strict';
/**
 * A Stripe-compatible HTTP server for the test suites: the official `stripe` SDK talks to it as
 * to api.stripe.com (and connect.stripe.com), and the suites steer it through /_control/.
 * See README.md. Start with `createFakeStripe()`, or `node tests/fakes/stripe/server.js [port]`.
 */
const http = require('node:http');
const { Store } = require('./store');
const { Billing } = require('./billing');
const { Webhooks } = require('./webhooks');
const { StripeError } = require('./errors');
const { parseForm } = require('./form');
const { route, render } = require('./routes');
const { controlRoutes, ControlError } = require('./control');
const { newId } = require('./ids');

/** @typedef {Record<string, any>} Obj */

const API_VERSION = '2026-10-28.endive';
const MAX_BODY = 1024 * 1024;

/**
 * What Stripe.js may call from a browser with a publishable key. Stripe.js sends that key (and a
 * connected account) as the `key` and `_stripe_account` form fields rather than headers, so the
 * browser needs no CORS preflight; every answer carries `Access-Control-Allow-Origin: *`.
 */
const PUBLISHABLE_ROUTES = [['POST', /^\/v1\/payment_methods$/]];
const CORS = { 'Access-Control-Allow-Origin': '*' };

const readBody = (/** @type {import('node:http').IncomingMessage} */ req) =>
  new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * @param {{ host?: string, port?: number }} [options]
 */
async function createFakeStripe(options = {}) {
  const store = new Store();
  const webhooks = new Webhooks(store);
  const billing = new Billing(store, (event) => webhooks.enqueue(event));
  const control = controlRoutes({ store, billing, webhooks });
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();

  const send = (
    /** @type {import('node:http').ServerResponse} */ res,
    /** @type {number} */ status,
    /** @type {unknown} */ body,
    /** @type {Obj} */ headers = {},
  ) => {
    if (res.writableEnded || res.destroyed) return;
    const text = JSON.stringify(body, null, 2);
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
      'Stripe-Version': API_VERSION,
      ...CORS,
      ...headers,
    });
    res.end(text);
  };

  const stripeErrorBody = (/** @type {StripeError} */ e, /** @type {boolean} */ oauth) => {
    if (!oauth) return { error: e.error };
    const err = /** @type {Obj} */ (e.error);
    return { error: err.error ?? (e.status === 401 ? 'invalid_client' : 'invalid_request'), error_description: err.error_description ?? err.message };
  };

  const handleControl = async (
    /** @type {import('node:http').IncomingMessage} */ req,
    /** @type {import('node:http').ServerResponse} */ res,
    /** @type {string} */ path,
  ) => {
    const name = `${req.method} ${path.slice('/_control/'.length)}`;
    const op = control[name];
    if (!op) return send(res, 404, { error: `unknown control operation ${name}` });
    try {
      const text = await readBody(req);
      const body = text ? JSON.parse(text) : {};
      send(res, 200, (await op(body)) ?? { ok: true });
    } catch (error) {
      const status = error instanceof ControlError ? error.status : 500;
      send(res, status, { error: /** @type {Error} */ (error).message });
    }
  };

  const handleApi = async (
    /** @type {import('node:http').IncomingMessage} */ req,
    /** @type {import('node:http').ServerResponse} */ res,
    /** @type {URL} */ url,
  ) => {
    const method = /** @type {string} */ (req.method);
    const path = url.pathname;
    const oauth = path.startsWith('/oauth/');
    const idempotencyKey = /** @type {string|undefined} */ (req.headers['idempotency-key']) ?? null;
    let stripeAccount = /** @type {string|undefined} */ (req.headers['stripe-account']) ?? null;
    const requestId = `req_${newId('x').slice(2, 16)}`;
    /** @type {import('./store').RequestRecord} */
    const record = {
      id: requestId,
      method,
      path,
      query: url.search.slice(1),
      // What the request asked for (form fields and query), card numbers left out.
      params: null,
      idempotencyKey,
      stripeAccount,
      stripeVersion: /** @type {string|undefined} */ (req.headers['stripe-version']) ?? null,
      // Made with a publishable key: Stripe.js in a browser, not the app's server.
      publishable: false,
      status: null,
      outcome: 'pending',
      at: Date.now(),
    };
    store.requests.push(record);
    const headers = { 'Request-Id': requestId, ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) };
    const answer = (/** @type {number} */ status, /** @type {unknown} */ body, /** @type {Obj} */ extra = {}) => {
      record.status = status;
      send(res, status, body, { ...headers, ...extra });
    };

    // Injected trouble first: a hung or failing API never ran the request.
    if (store.take('hangRule', path)) {
      record.outcome = 'hung';
      req.resume();
      return;
    }
    const failure = store.take('failRule', path);
    if (failure) {
      record.outcome = 'failed';
      req.resume();
      const type = failure.status === 429 ? 'rate_limit_error' : failure.status >= 500 ? 'api_error' : 'invalid_request_error';
      return answer(failure.status, {
        error: { type, message: `An error occurred with our connection to Stripe (injected by the test server: ${failure.status}).` },
      });
    }

    const auth = String(req.headers.authorization ?? '');
    let key = auth.startsWith('Bearer ')
      ? auth.slice(7).trim()
      : auth.startsWith('Basic ')
        ? Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')[0]
        : '';
    /** @type {string|null} */
    let text = null;
    const browserCall = PUBLISHABLE_ROUTES.some(([m, re]) => m === method && re.test(path));
    if (!key && browserCall) {
      // Stripe.js: the publishable key and connected account travel in the form body.
      text = await readBody(req);
      const fields = parseForm(text);
      key = typeof fields.key === 'string' ? fields.key : '';
      if (!stripeAccount && typeof fields._stripe_account === 'string') stripeAccount = fields._stripe_account;
      record.stripeAccount = stripeAccount;
    }
    record.publishable = /^pk_/.test(key);
    if (/^pk_test_/.test(key) && !browserCall) {
      record.outcome = 'unauthorized';
      req.resume();
      return answer(401, {
        error: {
          type: 'invalid_request_error',
          message:
            'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
        },
      });
    }
    if (!key) {
      record.outcome = 'unauthorized';
      req.resume();
      return answer(
        401,
        oauth
          ? { error: 'invalid_client', error_description: 'No authentication was provided.' }
          : {
              error: {
                type: 'invalid_request_error',
                message:
                  "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
              },
            },
      );
    }
    if (!/^(sk|rk)_test_/.test(key) && !(browserCall && /^pk_test_/.test(key))) {
      record.outcome = 'unauthorized';
      req.resume();
      return answer(
        401,
        oauth
          ? { error: 'invalid_client', error_description: 'Invalid API Key provided.' }
          : {
              error: {
                type: 'invalid_request_error',
                message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
              },
            },
      );
    }
    if (stripeAccount) {
      const account = store.accounts.get(stripeAccount);
      if (!account || !account.authorized) {
        record.outcome = 'forbidden';
        req.resume();
        return answer(403, {
          error: {
            type: 'invalid_request_error',
            code: 'account_invalid',
            message: `The provided key '${key.slice(0, 8)}***${key.slice(-4)}' does not have access to account '${stripeAccount}' (or that account does not exist). Application access may have been revoked.`,
          },
        });
      }
    }

    if (text === null) text = await readBody(req);
    const params = method === 'GET' ? parseForm(url.search.slice(1)) : { ...parseForm(url.search.slice(1)), ...parseForm(text) };
    if (browserCall) {
      delete params.key;
      delete params._stripe_account;
    }
    record.params = oauth || browserCall ? null : params;

    // Idempotency (POST only, scoped to the account): the same key replays the stored answer.
    const scope = `${stripeAccount ?? ''}|${idempotencyKey}`;
    if (method === 'POST' && idempotencyKey) {
      const saved = store.idempotency.get(scope);
      if (saved) {
        if (saved.method !== method || saved.path !== path || saved.body !== text) {
          record.outcome = 'idempotency_error';
          return answer(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        record.outcome = 'replayed';
        return answer(saved.status, saved.response, { 'Idempotent-Replayed': 'true', 'Original-Request': saved.requestId });
      }
    }

    const found = route(method, path);
    let status = 200;
    /** @type {unknown} */
    let body;
    let save = true;
    if (!found) {
      status = 404;
      save = false;
      body = {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        },
      };
    } else {
      try {
        const result = billing.within({ account: stripeAccount, requestId, idempotencyKey }, () => found.handler(billing, params, found.match));
        body = oauth ? result : render(billing, result, params.expand);
      } catch (error) {
        if (!(error instanceof StripeError)) {
          console.error('[fake-stripe]', error);
          status = 500;
          save = false;
          body = { error: { type: 'api_error', message: `Internal error in the test server: ${/** @type {Error} */ (error).message}` } };
        } else {
          status = error.status;
          save = error.record;
          body = stripeErrorBody(error, oauth);
        }
      }
    }
    record.outcome = status < 400 ? 'ok' : 'error';
    if (method === 'POST' && idempotencyKey && save) {
      store.idempotency.set(scope, { method, path, body: text, status, response: /** @type {Obj} */ (body), requestId });
    }
    answer(status, body);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-stripe.local');
    const path = url.pathname;
    if (req.method === 'OPTIONS') {
      // CORS preflight (a browser page calling the API or the control API, e.g. the Stripe.js test double).
      req.resume();
      res.writeHead(204, {
        ...CORS,
        'Access-Control-Allow-Methods': 'GET, POST, DELETE',
        'Access-Control-Allow-Headers': String(req.headers['access-control-request-headers'] ?? 'Content-Type, Authorization, Stripe-Account, Idempotency-Key'),
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    const work = path.startsWith('/_control/') ? handleControl(req, res, path) : handleApi(req, res, url);
    work.catch((error) => {
      console.error('[fake-stripe]', error);
      send(res, 500, { error: { type: 'api_error', message: String(error?.message ?? error) } });
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const host = options.host ?? '127.0.0.1';

  return {
    url: `http://${host}:${address.port}`,
    host,
    port: address.port,
    store,
    billing,
    webhooks,
    /** Stops deliveries, destroys every socket (hung requests included) and closes the server. */
    async stop() {
      await webhooks.stop();
      const closed = new Promise((resolve) => server.close(() => resolve(undefined)));
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closed;
    },
  };
}

module.exports = { createFakeStripe, API_VERSION };

if (require.main === module) {
  createFakeStripe({ port: Number(process.argv[2] ?? 12111) }).then((fake) => {
    console.log(`Stripe test server on ${fake.url} (control API: ${fake.url}/_control/)`);
    const stop = () => void fake.stop().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
