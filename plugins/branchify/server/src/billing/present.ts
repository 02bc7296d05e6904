import type { InvoiceResource, SubscriptionResource } from '@branchify/shared';
import { presentPlan } from '../plans/present';
import type { PlanRow } from '../content-types/plan';
import type { SubscriptionRow } from '../content-types/subscription';
import type { InvoiceRow } from '../content-types/invoice';

const iso = (v: string | Date | null | undefined) => (v ? new Date(v).toISOString() : null);

/** A subscription as the API shows it: id, status, canceled_at, plan, plan_id, user_id, managed_by, started_at, payment_method_id, renews_at. */
export const presentSubscription = (row: SubscriptionRow, plan: PlanRow | null): SubscriptionResource => ({
  id: row.id,
  status: row.status,
  canceled_at: iso(row.canceled_at),
  cancel_at_period_end: Boolean(row.cancel_at_period_end),
  canceled_by: row.status === 'canceled' ? (row.canceled_by ?? null) : null,
  plan: plan ? presentPlan(plan) : null,
  plan_id: row.plan_id,
  user_id: row.user_id,
  managed_by: row.managed_by,
  started_at: iso(row.started_at),
  payment_method_id: row.payment_method_id ?? null,
  renews_at: iso(row.renews_at),
  created_at: iso(row.createdAt),
});

/** An invoice as the API shows it: id (invoice_id), amount, currency, status, created_at, and the plan it was for. */
export const presentInvoice = (row: InvoiceRow, plan: Pick<PlanRow, 'id' | 'name'> | null = null): InvoiceResource => ({
  id: row.id,
  invoice_id: row.invoice_id,
  subscription_id: row.subscription_id ?? null,
  plan: plan ? { id: plan.id, name: plan.name } : null,
  number: row.number,
  amount: Number(row.amount ?? 0),
  amount_refunded: Number(row.amount_refunded ?? 0),
  currency: row.currency ?? 'usd',
  status: row.status,
  paid_at: iso(row.paid_at),
  hosted_invoice_url: row.hosted_invoice_url,
  created_at: iso(row.createdAt),
});
