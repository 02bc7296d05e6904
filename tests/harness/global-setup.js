'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { startServer } = require('./server');
const { TMP_DIR } = require('./context');
const { createFakeStripe } = require('../fakes/stripe/server');
const operationsFakes = require('../fakes/operations');

/**
 * Starts the Stripe test server (tests/fakes/stripe) and then Strapi once for the whole run, and
 * registers the install's first account (which the product makes the administrator); tests read
 * its credentials and the Stripe server's address from the environment.
 */
module.exports = async () => {
  // One server per run: the api and e2e projects share it (their setups both run).
  if (globalThis.__BRANCHIFY_STRAPI__) return;
  fs.mkdirSync(TMP_DIR, { recursive: true });
  // Blocks of client addresses the suites claim (tests/api/support/http.ts newIp).
  process.env.BRANCHIFY_TEST_IP_DIR = fs.mkdtempSync(path.join(TMP_DIR, 'ips-'));

  // Before Strapi: config/src/env.ts reads (and caches) these on first use.
  const stripe = await createFakeStripe({ host: '127.0.0.1', port: 0 });
  globalThis.__BRANCHIFY_STRIPE_FAKE__ = stripe;
  process.env.BRANCHIFY_STRIPE_FAKE_URL = stripe.url;
  process.env.STRIPE_API_HOST = stripe.host;
  process.env.STRIPE_API_PORT = String(stripe.port);
  process.env.STRIPE_API_PROTOCOL = 'http';
  // Short, so the "Stripe hangs" suite gives up quickly; one retry, as the SDK would make.
  process.env.STRIPE_TIMEOUT_MS = process.env.STRIPE_TIMEOUT_MS || '2000';
  process.env.STRIPE_MAX_NETWORK_RETRIES = process.env.STRIPE_MAX_NETWORK_RETRIES || '1';
  // One extra trusted origin besides PUBLIC_URL, so the security suite can see CORS_ORIGINS honoured.
  process.env.CORS_ORIGINS = process.env.CORS_ORIGINS || 'https://partner.example.test';

  // SMTP sink and update feed (tests/fakes/operations.js sets UPDATE_* and BRANCHIFY_SMTP_*).
  globalThis.__BRANCHIFY_OPERATIONS_FAKES__ = await operationsFakes.start({ tmpDir: TMP_DIR });

  const { app, url } = await startServer();
  globalThis.__BRANCHIFY_STRAPI__ = app;
  process.env.BRANCHIFY_TEST_URL = url;

  // The routes the server registered, for the security suite's route × role matrix.
  const routesFile = path.join(TMP_DIR, `routes-${process.pid}.json`);
  const layers = (type) =>
    app.server
      .api(type)
      .listRoutes()
      .map((layer) => ({ path: layer.path, methods: layer.methods.filter((m) => m !== 'HEAD') }));
  fs.writeFileSync(routesFile, JSON.stringify({ 'content-api': layers('content-api'), admin: layers('admin') }, null, 2));
  process.env.BRANCHIFY_ROUTES_FILE = routesFile;

  const admin = { first_name: 'Ada', last_name: 'Admin', email: 'first-admin@example.test', password: 'first-admin-pass' };
  const res = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.255.255.1' },
    body: JSON.stringify({ ...admin, password_confirmation: admin.password }),
  });
  const body = await res.json();
  fs.writeFileSync(path.join(TMP_DIR, 'first-registration.json'), JSON.stringify({ status: res.status, body }, null, 2));
  process.env.BRANCHIFY_ADMIN_EMAIL = admin.email;
  process.env.BRANCHIFY_ADMIN_PASSWORD = admin.password;
  // The suites share this session (adminSession): a login per suite would exceed the per-account
  // login limit (5 a minute) long before the run ends.
  process.env.BRANCHIFY_ADMIN_ID = String(body?.data?.user?.id ?? '');
  process.env.BRANCHIFY_ADMIN_TOKEN = body?.data?.access_token ?? '';
};
