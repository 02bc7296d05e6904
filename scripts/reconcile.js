#!/usr/bin/env node
'use strict';
/**
 * After a webhook outage: re-reads Stripe's recent events and applies the ones not yet applied
 * (the same idempotent path webhooks take).
 *
 *   npm run reconcile -- [--since-hours 72]
 */
const path = require('node:path');
const { parseArgs } = require('node:util');

async function main() {
  const { values } = parseArgs({ options: { 'since-hours': { type: 'string', default: '72' } } });
  const hours = Number(values['since-hours']);
  if (!Number.isFinite(hours) || hours <= 0 || hours > 720) {
    console.error('--since-hours must be a number of hours between 1 and 720 (Stripe keeps 30 days of events)');
    return 2;
  }
  process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'warn';
  const root = path.resolve(__dirname, '..');
  const { createStrapi } = require(require.resolve('@strapi/strapi', { paths: [path.join(root, 'cms')] }));
  const app = createStrapi({ appDir: path.join(root, 'cms'), distDir: path.join(root, 'cms', 'dist') });
  await app.load();
  try {
    const summary = await app
      .plugin('branchify')
      .service('stripe-webhooks')
      .reconcile(Math.round(hours * 3600));
    console.log(`Reconciled Stripe events of the last ${hours} h: ${JSON.stringify(summary)}`);
    return summary.failed ? 1 : 0;
  } finally {
    await app.destroy();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(`reconcile failed: ${error.message}`);
    process.exit(1);
  });
