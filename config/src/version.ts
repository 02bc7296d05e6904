/** The application version, defined once (spec section 1: client version 2.0.7). */
export const APP_VERSION = '2.0.7';
