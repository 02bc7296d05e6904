import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface RefreshTokenRow {
  id: number;
  user_id: number;
  token_hash: string;
  family: string;
  expires_at: string | Date | null;
  rotated_at: string | Date | null;
  revoked_at: string | Date | null;
  user_agent: string | null;
  ip: string | null;
}
