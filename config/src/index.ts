export { env, parseEnv, resetEnvCache, ConfigError } from './env';
export type { Env } from './env';
export { APP_VERSION } from './version';
export { ROOT_DIR, CMS_DIR, ENV_FILE } from './paths';
export { MESSAGES, fieldMessages, messageTemplates } from './messages';
export type { MessageKey } from './messages';
export { loadEnvFile, SECRET_VARIABLES } from './secrets';
export * from './content';
export { DEFAULT_APP_NAME, DEFAULT_COLOR_SCHEME, RGB_COLORS } from './branding';
