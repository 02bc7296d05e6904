/** Node-only shared pieces: the environment (the one reader of process.env), paths and secrets. */
export { env, parseEnv, resetEnvCache, ConfigError } from './env';
export type { Env } from './env';
export { ROOT_DIR, CMS_DIR, ENV_FILE } from './paths';
export { loadEnvFile, SECRET_VARIABLES } from './secrets';
export { SQLITE_DRIVER, useSupportedSqliteDriver } from './sqlite-driver';
export { MEDIA_SOURCES } from './csp';
