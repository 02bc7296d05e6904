import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface CreatorImageRow {
  id: number;
  owner_id: number;
  url: string;
  size: number;
  file_id: number | null;
  content_hash?: string | null;
}
