import type { VideoProvider } from '@branchify/shared';
import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface VideoRow {
  id: number;
  owner_id: number;
  title: string;
  size: number | null;
  thumbnail: string | null;
  duration: number | string | null;
  provider: VideoProvider;
  external_id: string | null;
  embed_url: string | null;
  source: string | null;
  source_url: string | null;
  createdAt?: string | Date;
  updatedAt?: string | Date;
}
