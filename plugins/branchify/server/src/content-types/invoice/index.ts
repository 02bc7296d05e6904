import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface InvoiceRow {
  id: number;
  user_id: number;
  subscription_id: number | null;
  plan_id?: number | null;
  invoice_id: string | null;
  number: string | null;
  amount: number | string | null;
  amount_refunded: number | string | null;
  currency: string | null;
  status: string;
  paid_at: string | Date | null;
  hosted_invoice_url: string | null;
  createdAt?: string | Date;
}
