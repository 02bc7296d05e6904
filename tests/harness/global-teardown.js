'use strict';
const fs = require('node:fs');
const operationsFakes = require('../fakes/operations');

module.exports = async () => {
  const app = globalThis.__BRANCHIFY_STRAPI__;
  const stripe = globalThis.__BRANCHIFY_STRIPE_FAKE__;
  // Stop webhook deliveries and drop hung requests first, so nothing reaches a closing app.
  if (stripe) await stripe.stop();
  if (app) await app.destroy();
  globalThis.__BRANCHIFY_STRAPI__ = undefined;
  globalThis.__BRANCHIFY_STRIPE_FAKE__ = undefined;
  const fakes = globalThis.__BRANCHIFY_OPERATIONS_FAKES__;
  globalThis.__BRANCHIFY_OPERATIONS_FAKES__ = undefined;
  if (fakes) await operationsFakes.stop(fakes);
  // The route list global-setup wrote for the security suite.
  if (process.env.BRANCHIFY_ROUTES_FILE) fs.rmSync(process.env.BRANCHIFY_ROUTES_FILE, { force: true });
  if (process.env.BRANCHIFY_TEST_IP_DIR) fs.rmSync(process.env.BRANCHIFY_TEST_IP_DIR, { recursive: true, force: true });
};
