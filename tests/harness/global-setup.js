'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { startServer } = require('./server');
const { TMP_DIR } = require('./context');

/**
 * Starts Strapi once for the whole run and registers the install's first account (which the
 * product makes the administrator); tests read its credentials from the environment.
 */
module.exports = async () => {
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const { app, url } = await startServer();
  globalThis.__BRANCHIFY_STRAPI__ = app;
  process.env.BRANCHIFY_TEST_URL = url;

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
};
