/** Node-only shared pieces: the environment (the one reader of process.env), paths and secrets. */
export { env, parseEnv, ConfigError } from './env';
export { ROOT_DIR, CMS_DIR } from './paths';
export { SQLITE_DRIVER, useSupportedSqliteDriver } from './sqlite-driver';
export { MEDIA_SOURCES } from './csp';
export { COMPRESS_MIN_BYTES, CONTENT_CODINGS, PRECOMPRESSED_EXTENSIONS, isCompressibleType } from './compression';
export type { ContentCoding } from './compression';
