import type { FunnelDocument, FunnelSettings, FunnelVariable } from '@branchify/shared';
import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface FunnelRow {
  id: number;
  owner_id: number;
  identifier: string;
  title: string;
  description: string | null;
  settings: Partial<FunnelSettings> | null;
  videos: FunnelDocument['videos'] | null;
  variables?: FunnelVariable[] | null;
  version: number | null;
  createdAt?: string | Date;
  updatedAt?: string | Date;
}
