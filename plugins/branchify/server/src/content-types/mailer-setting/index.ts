import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface MailerSettingsRow {
  id: number;
  host: string | null;
  port: number | null;
  encryption: string | null;
  username: string | null;
  password_encrypted: string | null;
  from_address: string | null;
  from_name: string | null;
  verified_at: string | Date | null;
  updatedAt?: string | Date | null;
}
