/** The application version, defined once. */
export const APP_VERSION = '2.0.7';
