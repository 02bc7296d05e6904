import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface CacheVersionRow {
  id: number;
  scope: string;
  /** A bigint column: a string on PostgreSQL. */
  version: number | string;
}
