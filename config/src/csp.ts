/**
 * Content-Security-Policy sources shared by the web app's policy (cms/config/middlewares.ts) and
 * the player page's (plugins/branchify/server/src/player-page), so the editor's stage plays
 * exactly what the library accepts and the player plays: a direct video URL may be http or https
 * (the library takes both), and players build blob: and data: sources of their own.
 */
export const MEDIA_SOURCES: readonly string[] = ["'self'", 'http:', 'https:', 'data:', 'blob:'];
