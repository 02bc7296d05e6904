import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface StripeSettingsRow {
  id: number;
  client_id: string | null;
  secret_encrypted: string | null;
  publishable_key: string | null;
  webhook_secret_encrypted: string | null;
  account_id: string | null;
  connected_at: string | Date | null;
  verified_fingerprint: string | null;
}
