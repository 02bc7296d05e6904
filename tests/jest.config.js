/**
 * Test projects, each runnable alone (`npm test -- --selectProjects unit`):
 *   unit      pure modules, no server (seconds);
 *   api       the /api and security suites against one real Strapi (harness/global-setup.js);
 *   e2e       browser suites in Debian's Chromium against the same kind of server.
 * With BRANCHIFY_TEST_WORKERS=2, run-tests.js runs them in two groups (BRANCHIFY_TEST_GROUP), each
 * with a server and database of its own (harness/groups.js):
 *   parallel  unit, and the api suites that keep to their own users and content, two at a time;
 *   serial    the api suites marked `// @serial` (they change install-wide settings), and e2e,
 *             one at a time.
 * Without a group (the default) every suite runs, one at a time, on one server.
 */
const { SQLITE_DRIVER } = require('@branchify/shared/node');
const { GROUPS, serialSuites } = require('./harness/groups');

const common = {
  rootDir: __dirname,
  // knex loads 'better-sqlite3'; on Node 20 its stand-in (config/src/sqlite-driver.ts).
  moduleNameMapper: SQLITE_DRIVER === 'better-sqlite3' ? {} : { '^better-sqlite3$': require.resolve(SQLITE_DRIVER) },
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] },
};
const withServer = {
  globalSetup: '<rootDir>/harness/global-setup.js',
  globalTeardown: '<rootDir>/harness/global-teardown.js',
};

const group = process.env.BRANCHIFY_TEST_GROUP || null;
if (group && !GROUPS[group]) throw new Error(`BRANCHIFY_TEST_GROUP must be one of ${Object.keys(GROUPS).join(', ')}`);
const inGroup = (name) => !group || GROUPS[group].projects.includes(name);

const apiMatch = ['<rootDir>/api/**/*.test.ts', '<rootDir>/security/**/*.test.ts'];
const serial = serialSuites();
const literal = (file) => file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// The parallel group leaves the serial suites out; the serial group runs only them.
const apiFiles =
  group === 'parallel'
    ? { testMatch: apiMatch, testPathIgnorePatterns: ['/node_modules/', ...serial.map((f) => `^${literal(f)}$`)] }
    : group === 'serial'
      ? { testMatch: serial }
      : { testMatch: apiMatch };

module.exports = {
  maxWorkers: group ? GROUPS[group].workers : 1,
  // A hang guard, not a performance assertion.
  testTimeout: 120000,
  projects: [
    ...(inGroup('unit') ? [{ ...common, displayName: 'unit', testMatch: ['<rootDir>/unit/**/*.test.ts'] }] : []),
    ...(inGroup('api') ? [{ ...common, ...withServer, displayName: 'api', ...apiFiles }] : []),
    // BRANCHIFY_SKIP_E2E=1 leaves the browser suites out (run-tests.js sets it where Chromium is missing).
    ...(process.env.BRANCHIFY_SKIP_E2E === '1' || !inGroup('e2e')
      ? []
      : [{ ...common, ...withServer, displayName: 'e2e', testMatch: ['<rootDir>/e2e/**/*.test.ts'] }]),
  ],
};
