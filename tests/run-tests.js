#!/usr/bin/env node
'use strict';
/**
 * Runs the suites against a fresh database of their own: a new SQLite file by default, or a new
 * PostgreSQL schema when DATABASE_URL is set (dropped afterwards), so runs never see each other's
 * rows. With BRANCHIFY_TEST_WORKERS=2 the run goes in two groups (harness/groups.js), each with a
 * server and database of its own: first the suites that keep to their own users and content, two
 * at a time, then the `// @serial` ones and the browser suites, one at a time
 * (BRANCHIFY_TEST_GROUP=parallel|serial runs one group alone). Prints `<label>: N passed, N failed`
 * over the whole run and leaves a summary for .ci/run.
 *
 *   node run-tests.js [jest args…]
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { TMP_DIR, freshSecrets } = require('./harness/context');
const { GROUPS, runGroups } = require('./harness/groups');

const runId = `${Date.now().toString(36)}_${process.pid}`;
const label = process.env.TEST_LABEL || (process.env.DATABASE_URL ? 'postgres' : 'sqlite');
fs.mkdirSync(TMP_DIR, { recursive: true });

const baseEnv = (groupId) => ({
  ...process.env,
  NODE_ENV: 'test',
  BRANCHIFY_ENV_FILE: path.join(TMP_DIR, `run-${groupId}.env`),
  ...freshSecrets(),
  SERVE_ADMIN_PANEL: 'false',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL || 'warn',
  LOG_FILE: path.join(TMP_DIR, `run-${groupId}.log`),
  PUBLIC_URL: 'http://localhost:1337',
  // The suites speak as if behind one proxy hop, each test with its own client address, so
  // rate limits of one test never leak into another (and spoofing can be tested).
  PROXY_ENABLED: 'true',
  PROXY_MAX_IPS_COUNT: '1',
});

async function withPostgresSchema(groupId, fn) {
  const { Client } = require('pg');
  const schema = `bf_test_${groupId}`.toLowerCase();
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

async function withSqliteFile(groupId, fn) {
  const file = path.join(TMP_DIR, `run-${groupId}.db`);
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
const skipE2e = (() => {
  if (process.env.BRANCHIFY_SKIP_E2E === '1') return true;
  if (!fs.existsSync(CHROMIUM) && process.env.CI !== 'true') {
    console.log(`note: ${CHROMIUM} not found, browser suites skipped (apt-get install -y chromium to run them)`);
    return true;
  }
  return false;
})();

/** The projects named by --selectProjects (all when none is named). */
const selectedProjects = (args) => {
  const names = [];
  for (let i = 0; i < args.length && args[i] !== '--'; i += 1) {
    if (args[i].startsWith('--selectProjects=')) names.push(...args[i].slice('--selectProjects='.length).split(','));
    else if (args[i] === '--selectProjects') while (i + 1 < args.length && !args[i + 1].startsWith('-')) names.push(args[(i += 1)]);
  }
  return names.length ? names : null;
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

const securityCounts = path.join(TMP_DIR, `security-${label}-${runId}.jsonl`);

/** One jest run (a group, or everything when group is null): its outcome and counts. */
function runGroup(group, groupId, databaseEnv) {
  const results = path.join(TMP_DIR, `results-${label}-${groupId}.json`);
  const jest = require.resolve('jest/bin/jest');
  // A file filter may match no suite of this group; the runner checks that some group ran one.
  const args = [
    jest,
    '--config',
    path.join(__dirname, 'jest.config.js'),
    '--json',
    '--outputFile',
    results,
    ...(group ? ['--passWithNoTests'] : []),
    ...process.argv.slice(2),
  ];
  const env = baseEnv(groupId);
  const started = Date.now();
  const proc = spawnSync(process.execPath, args, {
    stdio: 'inherit',
    // jest.config.js picks the group's suites, and leaves the browser suites out when BRANCHIFY_SKIP_E2E is 1.
    env: {
      ...env,
      ...databaseEnv,
      BRANCHIFY_TEST_GROUP: group ?? '',
      BRANCHIFY_SKIP_E2E: skipE2e ? '1' : '0',
      BRANCHIFY_SECURITY_COUNTS: securityCounts,
    },
    cwd: __dirname,
  });
  const outcome = { ok: proc.status === 0, passed: 0, failed: 0, suites: 0, seconds: Math.round((Date.now() - started) / 1000) };
  if (fs.existsSync(results)) {
    const summary = JSON.parse(fs.readFileSync(results, 'utf8'));
    outcome.passed = summary.numPassedTests;
    outcome.failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites || 0);
    outcome.suites = summary.numTotalTestSuites;
  } else {
    outcome.failed = 1;
  }
  fs.rmSync(results, { force: true });
  fs.rmSync(env.BRANCHIFY_ENV_FILE, { force: true });
  return outcome;
}

(async () => {
  const selected = selectedProjects(process.argv.slice(2));
  const outcomes = [];
  const groups = runGroups();
  for (const group of groups) {
    const projects = group ? GROUPS[group].projects : ['unit', 'api', 'e2e'];
    const wanted = projects.filter((p) => (!selected || selected.includes(p)) && !(p === 'e2e' && skipE2e));
    if (group && wanted.length === 0) continue;
    const groupId = group ? `${runId}_${group}` : runId;
    const run = (databaseEnv) => runGroup(group, groupId, databaseEnv);
    const outcome = process.env.DATABASE_URL ? await withPostgresSchema(groupId, run) : await withSqliteFile(groupId, run);
    if (group) console.log(`${label} (${group} group): ${outcome.passed} passed, ${outcome.failed} failed, ${outcome.suites} suites in ${outcome.seconds} s`);
    outcomes.push(outcome);
  }
  const passed = outcomes.reduce((sum, o) => sum + o.passed, 0);
  let failed = outcomes.reduce((sum, o) => sum + o.failed, 0);
  if (groups[0] && outcomes.reduce((sum, o) => sum + o.suites, 0) === 0) {
    console.log(`${label}: no test suite matched`);
    failed += 1;
  }
  fs.writeFileSync(path.join(TMP_DIR, `summary-${label}.json`), JSON.stringify({ label, passed, failed }));
  securitySummary(securityCounts);
  console.log(`${label}: ${passed} passed, ${failed} failed`);
  process.exit(outcomes.every((o) => o.ok) && failed === 0 ? 0 : 1);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
