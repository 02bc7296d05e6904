'use strict';
/**
 * How run-tests.js splits a run when BRANCHIFY_TEST_WORKERS is above 1 (by default everything
 * runs one at a time on one server, as one group). Suites that change what the whole install shares (branding,
 * mailer, Stripe keys, plans, webhooks, update state, the SMTP sink or the Stripe test server's
 * injected trouble) carry a `// @serial` line: they run one at a time on a server of their own,
 * after the rest have run two at a time on another, so no suite sees another's settings change
 * under it. The browser suites stay serial too (Chromium on two cores).
 */
const fs = require('node:fs');
const path = require('node:path');

const TESTS_DIR = path.join(__dirname, '..');
const SERIAL_MARK = /^\/\/ @serial\b/m;

const WORKERS = Number(process.env.BRANCHIFY_TEST_WORKERS || 1);

const GROUPS = {
  parallel: { projects: ['unit', 'api'], workers: WORKERS },
  serial: { projects: ['api', 'e2e'], workers: 1 },
};

/** The groups a run goes through, in order: one group of everything unless workers are asked for. */
const runGroups = () => {
  const only = process.env.BRANCHIFY_TEST_GROUP;
  if (only) {
    if (!GROUPS[only]) throw new Error(`BRANCHIFY_TEST_GROUP must be one of ${Object.keys(GROUPS).join(', ')}`);
    return [only];
  }
  return WORKERS > 1 ? ['parallel', 'serial'] : [null];
};

/** The api and security suites marked `// @serial`, as absolute paths. */
const serialSuites = () =>
  ['api', 'security'].flatMap((dir) =>
    fs
      .readdirSync(path.join(TESTS_DIR, dir))
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => path.join(TESTS_DIR, dir, name))
      .filter((file) => SERIAL_MARK.test(fs.readFileSync(file, 'utf8'))),
  );

module.exports = { GROUPS, runGroups, serialSuites };
