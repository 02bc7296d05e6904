'use strict';
/**
 * What the harness decided for this run (database, port, log file), shared between the runner,
 * the global setup and the test files through environment variables.
 */
const path = require('node:path');

const TMP_DIR = path.join(__dirname, '..', '.tmp');

module.exports = {
  TMP_DIR,
  baseUrl: () => process.env.BRANCHIFY_TEST_URL,
  logFile: () => process.env.LOG_FILE,
  isPostgres: () => Boolean(process.env.DATABASE_URL),
};
