import type { PaymentSchedule } from '@branchify/shared';
import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface PlanRow {
  id: number;
  name: string;
  description: string | null;
  price: string;
  currency: string;
  payment_schedule: PaymentSchedule;
  managed_by: 'platform' | 'self';
  max_funnel: number | null;
  max_branch_per_funnel: number | null;
  video_sources: string[] | null;
  is_active: boolean;
  sort_order: number | null;
  stripe_product_id: string | null;
  stripe_price_id: string | null;
  createdAt?: string | Date;
  updatedAt?: string | Date;
}
