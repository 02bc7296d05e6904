import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

/** One counter: hits in the window opened at `window_start` (epoch milliseconds, a bigint column). */
export interface RateLimitRow {
  id: number;
  bucket: string;
  window_start: number | string;
  hits: number;
}
