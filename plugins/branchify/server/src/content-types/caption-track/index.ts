import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface CaptionTrackRow {
  id: number;
  owner_id: number;
  video_id: number;
  key: string;
  language: string;
  label: string;
  content: string;
  size: number;
  cues: number;
  createdAt?: string | Date;
}
