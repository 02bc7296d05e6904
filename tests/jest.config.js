/**
 * Test projects, each runnable alone (`npm test -- --selectProjects unit`):
 *   unit      pure modules, no server (seconds);
 *   api       the /api and security suites against one real Strapi (harness/global-setup.js);
 *   e2e       browser suites in Debian's Chromium against the same kind of server.
 * The server starts once per run even when api and e2e run together.
 */
const { SQLITE_DRIVER } = require('@branchify/shared/node');

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

module.exports = {
  maxWorkers: 1,
  // A hang guard, not a performance assertion.
  testTimeout: 120000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/unit/**/*.test.ts'] },
    { ...common, ...withServer, displayName: 'api', testMatch: ['<rootDir>/api/**/*.test.ts', '<rootDir>/security/**/*.test.ts'] },
    // BRANCHIFY_SKIP_E2E=1 leaves the browser suites out (run-tests.js sets it where Chromium is missing).
    ...(process.env.BRANCHIFY_SKIP_E2E === '1' ? [] : [{ ...common, ...withServer, displayName: 'e2e', testMatch: ['<rootDir>/e2e/**/*.test.ts'] }]),
  ],
};
