/**
 * The longest text each stored field takes, in characters. The zod schemas cap input with these
 * and the content types pick each column from them, so a value a schema accepts always fits its
 * column (tests/api/stored-widths.test.ts compares every schema maximum with the real column).
 */

/** What a Strapi `string` column holds (varchar(255)); anything longer is stored as `text`. */
export const STRING_COLUMN_MAX = 255;

/**
 * The largest row id: ids are PostgreSQL `integer` columns (Strapi's increments), so an id sent in a
 * body or a path is checked against it before it reaches a query (past it PostgreSQL fails the query).
 */
export const ROW_ID_MAX = 2_147_483_647;

/** A funnel's video editor ids, element ids and branch ids. */
export const ID_MAX = 64;

/** A URL a creator types: branch links, images, thumbnails, an element's inaction link. */
export const URL_MAX = 2048;

/**
 * What a branch leads to, as analytics store it: a video's editor id, a branch link (URL_MAX)
 * or `timestamp:<seconds>`.
 */
export const BRANCH_TARGET_MAX = URL_MAX;

/**
 * The longest branch target a player may report: browsers send a link in its parsed form
 * (`new URL(link).href`), in which every non-ASCII byte of a URL_MAX-byte link becomes `%XX`.
 */
export const REPORTED_TARGET_MAX = 4 * URL_MAX;

/** The playback rates the player offers (the fastest bounds how much can be watched in a given time). */
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;
export const MAX_PLAYBACK_RATE = Math.max(...PLAYBACK_RATES);
