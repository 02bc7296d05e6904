#!/usr/bin/env node
'use strict';
/**
 * `npm start`: builds what is missing (TypeScript, the Strapi admin), then starts Branchify on
 * the configured database (SQLite under cms/.tmp by default), migrating it on the way up.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const cms = path.join(root, 'cms');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const nodeSupport = require('./node-support').check();
if (nodeSupport.level !== 'ok') console.warn(nodeSupport.message);
if (nodeSupport.level === 'error') process.exit(1);

const needsBuild = [
  path.join(root, 'config', 'dist', 'index.js'),
  path.join(root, 'plugins', 'branchify', 'dist', 'server', 'index.js'),
  path.join(cms, 'dist', 'config', 'server.js'),
  path.join(cms, 'dist', 'build', 'index.html'),
].some((file) => !fs.existsSync(file));

if (needsBuild || process.argv.includes('--build')) {
  console.log('Building Branchify (first start; this takes a few minutes)…');
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

let shared;
try {
  shared = { ...require('@branchify/shared'), ...require('@branchify/shared/node') };
  shared.env();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const { createStrapi } = require(require.resolve('@strapi/strapi', { paths: [cms] }));
const app = createStrapi({ appDir: cms, distDir: path.join(cms, 'dist') });

// SIGTERM/SIGINT shut down gracefully (operations/shutdown.ts: stop accepting, finish what is in
// flight, write queued events, one mail outbox pass, close the database), in place of Strapi's
// immediate stop; a second signal exits at once.
let stopping = false;
const onSignal = (signal) => {
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal} received: shutting down gracefully`);
  const lifecycle = app.isLoaded ? app.plugin('branchify')?.service('lifecycle') : undefined;
  (lifecycle ? lifecycle.shutdown() : app.destroy()).then(
    () => process.exit(0),
    (error) => {
      console.error(`Branchify did not shut down cleanly: ${error.message}`);
      process.exit(1);
    },
  );
};
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.removeAllListeners(signal);
  process.on(signal, onSignal);
}

app
  .start()
  .then(async () => {
    const { PUBLIC_URL, DATABASE_URL } = shared.env();
    console.log(`\nBranchify ${shared.APP_VERSION} is running at ${PUBLIC_URL} (${DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, Node.js ${process.versions.node}).`);
    console.log(`Register the first account (it becomes the administrator): ${PUBLIC_URL}/register`);
    // Strapi's /cms admin cannot be claimed over the web; its first super admin is made here.
    const cmsAdmins = await app.db.query('admin::user').count();
    if (cmsAdmins === 0) {
      console.log(
        `Strapi's admin at ${PUBLIC_URL}/cms has no administrator yet; create one on this server: npm run create-admin -- --email you@example.com --password 'A-long-secret-1' --cms`,
      );
    }
  })
  .catch((error) => {
    console.error(`Branchify failed to start: ${error.message}`);
    process.exit(1);
  });
