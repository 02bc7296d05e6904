import path from 'node:path';

/** Repository root: config/dist/*.js lives two folders below it. */
export const ROOT_DIR = path.resolve(__dirname, '..', '..');
export const CMS_DIR = path.join(ROOT_DIR, 'cms');
/** The untracked file that holds generated secrets (APP_KEYS, JWT secrets) and local overrides. */
export const ENV_FILE = process.env.BRANCHIFY_ENV_FILE || path.join(CMS_DIR, '.env');
