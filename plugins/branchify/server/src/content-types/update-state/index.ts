import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface UpdateStateRow {
  id: number;
  license_key_encrypted: string | null;
  current_version: string | null;
  latest_version: string | null;
  checked_at: string | Date | null;
  downloaded_version: string | null;
  downloaded_path: string | null;
  applied_at: string | Date | null;
}
