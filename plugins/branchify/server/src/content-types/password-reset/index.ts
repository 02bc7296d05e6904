import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface PasswordResetRow {
  id: number;
  user_id: number;
  token_hash: string;
  expires_at: string | Date | null;
  used_at: string | Date | null;
}
