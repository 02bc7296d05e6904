import { fieldMessages } from '../messages';
import { ROW_ID_MAX } from '../content/lengths';
import type { PlanResource } from './plans';
import { z } from 'zod';

const planId = z.coerce
  .number({ message: fieldMessages.required('plan') })
  .int({ message: fieldMessages.in('plan') })
  .positive({ message: fieldMessages.required('plan') })
  .max(ROW_ID_MAX, { message: fieldMessages.in('plan') });
const paymentMethod = z.string().trim().min(1).max(255).nullish();

export const subscribeSchema = z.object({
  plan_id: planId,
  payment_method_id: paymentMethod,
  status: z.string().optional(),
  managed_by: z.string().optional(),
  started_at: z.unknown().optional(),
});

export const adminSubscribeSchema = subscribeSchema.extend({
  user_id: z.coerce
    .number({ message: fieldMessages.required('user') })
    .int()
    .positive({ message: fieldMessages.required('user') })
    .max(ROW_ID_MAX, { message: fieldMessages.in('user') }),
});

export const changeSchema = z.object({ plan_id: planId, payment_method_id: paymentMethod, status: z.string().optional() });

/** Both readings of the cancel modal coexist: period, or cancel_at_period_end. */
export const cancelSchema = z
  .object({
    period: z.enum(['cancel_at_period_end', 'immediately'], { message: fieldMessages.in('period') }).optional(),
    cancel_at_period_end: z.boolean().optional(),
    cancellation_reason: z.string().trim().max(2000).nullish(),
    cancellation_note: z.string().trim().max(2000).nullish(),
  })
  .transform((v) => ({
    immediately: v.period ? v.period === 'immediately' : v.cancel_at_period_end === false,
    reason: v.cancellation_note || v.cancellation_reason || null,
  }));

/** When a self-managed period ends: an ISO date-time, or null for no renewal date. */
const renewsAt = z
  .union([z.iso.datetime({ offset: true, message: 'The renews at field must be an ISO 8601 date-time.' }), z.null()])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === null ? null : new Date(v)));

/** POST /api/branchify/subscriptions: `data` of a self-managed subscription the integrator bills. */
export const integratorSubscribeSchema = z.object({
  user_id: adminSubscribeSchema.shape.user_id,
  plan_id: planId,
  renews_at: renewsAt,
});

/** PUT /api/branchify/subscriptions/:id: one change at a time (a plan, a status, or the period's end). */
export const integratorUpdateSchema = z.object({
  plan_id: planId.optional(),
  status: z.enum(['active', 'canceled'], { message: fieldMessages.in('status') }).optional(),
  renews_at: renewsAt,
  period: z.enum(['cancel_at_period_end', 'immediately'], { message: fieldMessages.in('period') }).optional(),
  cancellation_reason: z.string().trim().max(2000).nullish(),
});

export const payInvoiceSchema = z.object({
  invoice_id: z.union([z.string().trim().min(1), z.number().int().positive().max(ROW_ID_MAX)], { message: fieldMessages.required('invoice') }),
});

export const refundSchema = z.object({
  invoice_id: z.union([z.string().trim().min(1), z.number().int().positive().max(ROW_ID_MAX)], { message: fieldMessages.required('invoice') }),
  amount: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+(\.\d+)?$/)
          .transform(Number),
      ],
      { message: 'The refund amount must be a number.' },
    )
    .nullish()
    .transform((v) => (v === null ? undefined : v)),
});

export const paymentMethodSchema = z.object({
  payment_method_id: z
    .string({ message: fieldMessages.required('payment method') })
    .trim()
    .min(1, { message: fieldMessages.required('payment method') })
    .max(255),
});

const key = (prefix: string, name: string) =>
  z
    .string()
    .trim()
    .max(255, { message: fieldMessages.max(name, 255) })
    .refine((v) => v === '' || v.startsWith(prefix), { message: `The ${name} must start with ${prefix}.` });

export const stripeConfigSchema = z.object({
  client_id: key('ca_', 'client id').nullish(),
  secret: z
    .string()
    .trim()
    .refine((v) => v === '' || /^(sk|rk)_/.test(v), { message: 'The secret must start with sk_ or rk_.' })
    .nullish(),
  publishable_key: key('pk_', 'publishable key').nullish(),
  webhook_secret: key('whsec_', 'webhook secret').nullish(),
  redirect_url: z.unknown().optional(),
});

/**
 * Why payments cannot work: no keys yet, Stripe refuses the secret key, Stripe could not be reached
 * to check them, or a test key paired with a live one. Null while payments work.
 */
export type StripeProblem = 'missing' | 'refused' | 'unreachable' | 'mismatch';

/** The mode a Stripe key is for ('sk_test_…' → test), or null for a key of neither mode. */
export const stripeKeyMode = (key: string): 'test' | 'live' | null => (/^(?:sk|rk|pk)_(test|live)_/.exec(key)?.[1] as 'test' | 'live' | null) ?? null;

/** A subscription as the API shows it; `status` is one of SUBSCRIPTION_STATUSES, `managed_by` one of MANAGED_BY. */
export interface SubscriptionResource {
  id: number;
  status: string;
  canceled_at: string | null;
  cancel_at_period_end: boolean;
  /** Who ended it (user, admin, integration, system); null while it runs. */
  canceled_by: string | null;
  plan: PlanResource | null;
  plan_id: number;
  user_id: number;
  managed_by: string;
  started_at: string | null;
  payment_method_id: string | null;
  renews_at: string | null;
  created_at: string | null;
}

/** An invoice as the API shows it; `amount` in the currency's main unit. */
export interface InvoiceResource {
  id: number;
  invoice_id: string | null;
  /** The subscription it billed (refunds go through it); null for one Stripe sent without one. */
  subscription_id: number | null;
  /** The plan it was for, as it is named now; null when the plan is gone. */
  plan: { id: number; name: string } | null;
  number: string | null;
  amount: number;
  amount_refunded: number;
  currency: string;
  status: string;
  paid_at: string | null;
  hosted_invoice_url: string | null;
  created_at: string | null;
}

/** The card on file (GET payment-method); the answer is null when there is none. */
export interface CardResource {
  id: string;
  brand: string | null;
  last4: string | null;
  exp_month: number | null;
  exp_year: number | null;
}

/** GET users/subscriptions/stripe-integration: what Stripe.js needs in the browser. */
export interface StripeIntegrationResource {
  integrated: boolean;
  publishable_key: string | null;
  account_id: string | null;
}
