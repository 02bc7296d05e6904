'use strict';
/**
 * What the harness decided for this run (database, port, log file), shared between the runner,
 * the global setup and the test files through environment variables.
 */
const nodeCrypto = require('node:crypto');
const path = require('node:path');

const TMP_DIR = path.join(__dirname, '..', '.tmp');

/** Fresh values for every secret the app needs, so a run never reads or writes a real .env's. */
const freshSecrets = () => {
  const secret = () => nodeCrypto.randomBytes(24).toString('base64');
  return {
    APP_KEYS: [secret(), secret()].join(','),
    API_TOKEN_SALT: secret(),
    ADMIN_JWT_SECRET: secret(),
    TRANSFER_TOKEN_SALT: secret(),
    JWT_SECRET: secret(),
    ENCRYPTION_KEY: secret(),
  };
};

module.exports = {
  freshSecrets,
  TMP_DIR,
  baseUrl: () => process.env.BRANCHIFY_TEST_URL,
  logFile: () => process.env.LOG_FILE,
  isPostgres: () => Boolean(process.env.DATABASE_URL),
};
