#!/usr/bin/env node
'use strict';
/**
 * Seeds the configured database. With --demo: a free demo plan, a verified demo creator on it and
 * a branching demo funnel of three bundled clips (database/seed/, served by the app at
 * /demo-media/…), then prints how to sign in and where to watch. Safe to run again: nothing is
 * added twice.
 *
 *   npm run seed -- --demo
 */
const path = require('node:path');
const { parseArgs } = require('node:util');

const usage = 'Usage: npm run seed -- --demo';

async function main() {
  let values;
  try {
    ({ values } = parseArgs({ options: { demo: { type: 'boolean', default: false } } }));
  } catch (error) {
    console.error(`${error.message}\n${usage}`);
    return 2;
  }
  if (!values.demo) {
    console.error(usage);
    return 2;
  }

  process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'error';
  const root = path.resolve(__dirname, '..');
  const { createStrapi } = require(require.resolve('@strapi/strapi', { paths: [path.join(root, 'cms')] }));
  const app = createStrapi({ appDir: path.join(root, 'cms'), distDir: path.join(root, 'cms', 'dist') });
  await app.load();
  try {
    const result = await app.plugin('branchify').service('demo-seed').run();
    console.log(result.added.length ? `Demo data added: ${result.added.join(', ')}.` : 'Demo data already present: nothing added.');
    for (const line of result.updated) console.log(`Updated: ${line}`);
    console.log(`Demo creator: ${result.email} / ${result.password} (sign in at the app's /login)`);
    console.log(`Demo funnel:  ${result.playerUrl}`);
    console.log('The demo password is published in the README: delete the demo account before opening this install to others.');
    return 0;
  } finally {
    await app.destroy();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(`seed failed: ${error.message}`);
    process.exit(1);
  });
