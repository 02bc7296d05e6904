import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

/** Which library video a funnel uses. */
export interface FunnelVideoRow {
  id: number;
  funnel_id: number;
  video_id: number;
  owner_id: number;
}
