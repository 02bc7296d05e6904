/** API suites: one real Strapi per run (harness/global-setup.js), driven over HTTP. */
module.exports = {
  rootDir: __dirname,
  testMatch: ['<rootDir>/api/**/*.test.ts', '<rootDir>/unit/**/*.test.ts', '<rootDir>/e2e/**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] },
  globalSetup: '<rootDir>/harness/global-setup.js',
  globalTeardown: '<rootDir>/harness/global-teardown.js',
  // A hang guard, not a performance assertion.
  testTimeout: 120000,
  maxWorkers: 1,
};
