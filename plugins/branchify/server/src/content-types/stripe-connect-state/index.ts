import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface ConnectStateRow {
  id: number;
  state_hash: string;
  browser_hash: string;
  admin_id: number;
  session_family: string;
  expires_at: string | Date | null;
}
