#!/usr/bin/env node
'use strict';
/**
 * Runs the API suites against a fresh database of their own: a new SQLite file by default, or a
 * new PostgreSQL schema when DATABASE_URL is set (dropped afterwards), so runs never see each
 * other's rows. Prints `<label>: N passed, N failed` and leaves a summary for .ci/run.
 *
 *   node run-tests.js [jest args…]
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { TMP_DIR, freshSecrets } = require('./harness/context');

const runId = `${Date.now().toString(36)}_${process.pid}`;
const label = process.env.TEST_LABEL || (process.env.DATABASE_URL ? 'postgres' : 'sqlite');
fs.mkdirSync(TMP_DIR, { recursive: true });

const env = {
  ...process.env,
  NODE_ENV: 'test',
  BRANCHIFY_ENV_FILE: path.join(TMP_DIR, `run-${runId}.env`),
  ...freshSecrets(),
  SERVE_ADMIN_PANEL: 'false',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL || 'warn',
  LOG_FILE: path.join(TMP_DIR, `run-${runId}.log`),
  PUBLIC_URL: 'http://localhost:1337',
  // The suites speak as if behind one proxy hop, each test with its own client address, so
  // rate limits of one test never leak into another (and spoofing can be tested).
  PROXY_ENABLED: 'true',
  PROXY_MAX_IPS_COUNT: '1',
};

async function withPostgresSchema(fn) {
  const { Client } = require('pg');
  const schema = `bf_test_${runId}`.toLowerCase();
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  try {
    return await fn({ DATABASE_SCHEMA: schema });
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch((e) => console.error(`could not drop ${schema}: ${e.message}`));
    await client.end();
  }
}

async function withSqliteFile(fn) {
  const file = path.join(TMP_DIR, `run-${runId}.db`);
  try {
    return await fn({ DATABASE_FILENAME: file });
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
  }
}

/**
 * Browser suites (tests/e2e) need Debian's Chromium. Without it they are left out with a note,
 * except in CI (CI=true), which installs it and requires them. BRANCHIFY_SKIP_E2E=1 leaves them
 * out on purpose (CI's PostgreSQL pass: the browser does not care which database is behind).
 */
const CHROMIUM = '/usr/bin/chromium';
const skipE2e = () => {
  if (process.env.BRANCHIFY_SKIP_E2E === '1') return true;
  if (!fs.existsSync(CHROMIUM) && process.env.CI !== 'true') {
    console.log(`note: ${CHROMIUM} not found, browser suites skipped (apt-get install -y chromium to run them)`);
    return true;
  }
  return false;
};

/** The security suites' counts, added up into one line (routes × roles, fuzz cases, findings). */
const securitySummary = (file) => {
  if (!fs.existsSync(file)) return;
  const totals = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const { name, count } = JSON.parse(line);
    totals[name] = (totals[name] ?? 0) + count;
  }
  fs.rmSync(file, { force: true });
  const routes = totals.routes ?? 0;
  const roles = totals.roles ?? 0;
  const n = (name) => totals[name] ?? 0;
  console.log(
    `security: routes × roles ${routes} × ${roles} (${n('cells')} cells, ${n('strapi-admin-cells')} on Strapi's admin API), ` +
      `path spellings ${n('path-spellings')}, API-token cells ${n('api-token-cells')}, body types ${n('content-types')}, ` +
      `resources ${n('resources') + n('image-bombs')} (temp files ${n('resources')}, image bombs ${n('image-bombs')}), ` +
      `ingest integrity ${n('ingest-cases')}, fuzz cases ${n('fuzz')}, findings fixed ${n('findings')}`,
  );
};

function runJest(extraEnv) {
  const results = path.join(TMP_DIR, `results-${label}-${runId}.json`);
  const securityCounts = path.join(TMP_DIR, `security-${label}-${runId}.jsonl`);
  const jest = require.resolve('jest/bin/jest');
  const args = [jest, '--config', path.join(__dirname, 'jest.config.js'), '--json', '--outputFile', results, ...process.argv.slice(2)];
  const proc = spawnSync(process.execPath, args, {
    stdio: 'inherit',
    // jest.config.js leaves the browser suites out when BRANCHIFY_SKIP_E2E is 1.
    env: { ...env, ...extraEnv, BRANCHIFY_SKIP_E2E: skipE2e() ? '1' : '0', BRANCHIFY_SECURITY_COUNTS: securityCounts },
    cwd: __dirname,
  });
  let passed = 0;
  let failed = 0;
  if (fs.existsSync(results)) {
    const summary = JSON.parse(fs.readFileSync(results, 'utf8'));
    passed = summary.numPassedTests;
    failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites || 0);
  } else {
    failed = 1;
  }
  fs.rmSync(results, { force: true });
  fs.writeFileSync(path.join(TMP_DIR, `summary-${label}.json`), JSON.stringify({ label, passed, failed }));
  securitySummary(securityCounts);
  console.log(`${label}: ${passed} passed, ${failed} failed`);
  return proc.status === 0 && failed === 0 ? 0 : 1;
}

(async () => {
  const code = process.env.DATABASE_URL ? await withPostgresSchema(runJest) : await withSqliteFile(runJest);
  fs.rmSync(env.BRANCHIFY_ENV_FILE, { force: true });
  process.exit(code);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
