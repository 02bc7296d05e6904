import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface EndpointRow {
  id: number;
  url: string;
  description: string | null;
  events: string[] | string | null;
  secret_encrypted: string;
  enabled: boolean | number | null;
  created_by: number | null;
  createdAt?: string | Date | null;
  updatedAt?: string | Date | null;
}
