import schema, { CANCELED_BY } from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export type CanceledBy = (typeof CANCELED_BY)[number];

export interface SubscriptionRow {
  id: number;
  user_id: number;
  plan_id: number;
  status: string;
  managed_by: string;
  started_at: string | Date | null;
  renews_at: string | Date | null;
  canceled_at: string | Date | null;
  cancel_at_period_end: boolean;
  cancellation_reason: string | null;
  /** Who ended it: the user, an admin, an integrator, or the system (replaced by another plan, given up unpaid). */
  canceled_by?: CanceledBy | null;
  payment_method_id: string | null;
  stripe_subscription_id: string | null;
  stripe_customer_id: string | null;
  createdAt?: string | Date;
}
