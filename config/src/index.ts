/**
 * @branchify/shared: what the server, the web app and the player share, all of it safe in a
 * browser. Node-only pieces (environment, paths, secrets) are in '@branchify/shared/node'.
 */
export { APP_VERSION } from './version';
export { MESSAGES, fieldMessages, messageTemplates } from './messages';
export type { MessageKey } from './messages';
export { SESSION_HINT_COOKIE, SESSION_MESSAGES } from './session';
export * from './content';
export * from './schemas';
export * from './rules/funnel';
export * from './rules/plans';
export * from './rules/money';
export * from './rules/subscription';
export { clockTime, spelledDuration, videoLength } from './time';
export { CSS_VARIABLE_NAME, DEFAULT_APP_NAME, DEFAULT_COLOR_SCHEME, HEX_COLOR, RGB_COLORS, cssVariableName } from './branding';
