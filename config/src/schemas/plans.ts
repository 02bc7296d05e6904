import { fieldMessages, messageTemplates } from '../messages';
import { VIDEO_PROVIDERS } from '../content/video-sources';
import { requiredString } from './fields';
import { z } from 'zod';
import { MANAGED_BY, PAYMENT_SCHEDULES, type PaymentSchedule } from '../rules/plans';
import { currencyRule, fitsCurrency, formatAmount } from '../rules/money';

/** An amount as typed: up to 7 digits, up to 3 decimals (how many the currency allows is checked with it). */
const PRICE = /^\d{1,7}(\.\d{1,3})?$/;

const limit = (name: string) =>
  z
    .number({ message: `The ${name.replace(/_/g, ' ')} field must be a whole number or empty for unlimited.` })
    .int({ message: `The ${name.replace(/_/g, ' ')} field must be a whole number or empty for unlimited.` })
    .min(0, { message: `The ${name.replace(/_/g, ' ')} field must be at least 0.` })
    .nullable()
    .default(null);

/** The admin plan form. `null` limits mean unlimited. */
export const planSchema = z
  .object({
    name: requiredString('name'),
    description: z
      .string()
      .max(2000)
      .nullish()
      .transform((v) => v ?? ''),
    price: z
      .union([z.string(), z.number()], { message: fieldMessages.required('price') })
      .transform((v) => String(v).trim())
      .refine((v) => PRICE.test(v), { message: 'The price field must be an amount such as 19 or 19.99.' }),
    currency: z
      .string({ message: fieldMessages.required('currency') })
      .trim()
      .toLowerCase()
      .regex(/^[a-z]{3}$/, { message: 'The currency field must be a 3-letter currency code such as usd.' })
      .default('usd'),
    payment_schedule: z.enum(PAYMENT_SCHEDULES, { message: fieldMessages.in('payment schedule') }),
    managed_by: z.enum(MANAGED_BY, { message: fieldMessages.in('managed by') }).default('platform'),
    max_funnel: limit('max_funnel'),
    max_branch_per_funnel: limit('max_branch_per_funnel'),
    video_sources: z
      .array(
        z
          .string()
          .toLowerCase()
          .pipe(z.enum(VIDEO_PROVIDERS, { message: fieldMessages.in('video source') })),
      )
      .nullable()
      .default(null)
      .transform((v) => (v ? [...new Set(v)] : v)),
    is_active: z.boolean({ message: fieldMessages.boolean('is active') }).default(true),
    sort_order: z.number().int().min(0).max(10_000).default(0),
  })
  .superRefine((plan, ctx) => {
    const free = Number(plan.price) === 0;
    if (plan.payment_schedule === 'free' && !free) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'A free plan must have a price of 0.' });
    }
    if (plan.payment_schedule !== 'free' && free) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'A paid plan must have a price greater than 0.' });
    }
    // No more decimals than the currency is charged in (none for JPY, steps of 0.010 for BHD).
    if (PRICE.test(plan.price) && !fitsCurrency(plan.price, plan.currency)) {
      ctx.addIssue({
        code: 'custom',
        path: ['price'],
        message: messageTemplates.tooManyDecimals('price field', plan.currency, currencyRule(plan.currency).decimals),
      });
    }
  })
  // Stored with the currency's decimals: '19.00', '1000' (JPY), '12.500' (BHD).
  .transform((plan) => ({ ...plan, price: formatAmount(plan.price, plan.currency) }));

export type PlanInput = z.output<typeof planSchema>;

/** A plan as the API shows it (the Stripe ids stay on the server). */
export interface PlanResource {
  id: number;
  name: string;
  description: string;
  price: string;
  currency: string;
  payment_schedule: PaymentSchedule;
  managed_by: (typeof MANAGED_BY)[number];
  max_funnel: number | null;
  max_branch_per_funnel: number | null;
  video_sources: string[] | null;
  is_active: boolean;
  sort_order: number;
  /** 'Free', '$19.00/month', '$190.00/year' or a one-time '$49.00'. */
  price_display: string;
}

/**
 * A plan as the admin API shows it: the plan, plus what the admin needs to manage it. These
 * derived fields are read-only: a client may send them back on save, and they are ignored.
 */
export interface AdminPlanResource extends PlanResource {
  /** Subscriptions (any status) on this plan; a plan with any cannot be deleted. */
  subscriber_count: number;
  /** False for a paid plan while Stripe is not configured: nobody can pay for it yet. */
  payment_ready: boolean;
  created_at: string | null;
  updated_at: string | null;
}
