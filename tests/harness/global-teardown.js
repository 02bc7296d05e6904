'use strict';
const operationsFakes = require('../fakes/operations');

module.exports = async () => {
  const app = globalThis.__BRANCHIFY_STRAPI__;
  const stripe = globalThis.__BRANCHIFY_STRIPE_FAKE__;
  // Stop webhook deliveries and drop hung requests first, so nothing reaches a closing app.
  if (stripe) await stripe.stop();
  if (app) await app.destroy();
  await operationsFakes.stop(globalThis.__BRANCHIFY_OPERATIONS_FAKES__);
};
