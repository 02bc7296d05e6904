import { MESSAGES, fieldMessages } from '../messages';
import { z } from 'zod';

/** What an endpoint can subscribe to, in the order the admin screen lists them. */
export const WEBHOOK_EVENT_TYPES = ['subscription.changed', 'funnel.viewed', 'funnel.completed', 'branch.clicked'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The send-test-event type: delivered to one endpoint on request, never subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** The version of every event's payload: a change a receiver could trip on comes with a new one. */
export const WEBHOOK_PAYLOAD_VERSION = 1;

const WEBHOOK_URL_MAX = 2048;

/** An https URL without credentials (where it points is checked on the server, at save and at send). */
export const webhookUrl = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? fieldMessages.required('url') : fieldMessages.string('url')) })
  .trim()
  .min(1, { message: fieldMessages.required('url') })
  .max(WEBHOOK_URL_MAX, { message: fieldMessages.max('url', WEBHOOK_URL_MAX) })
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: MESSAGES.webhookUrlInvalid });
      return;
    }
    if (url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: MESSAGES.webhookUrlNotHttps });
    else if (url.username || url.password || !url.hostname) ctx.addIssue({ code: 'custom', message: MESSAGES.webhookUrlInvalid });
  });

export const webhookEndpointSchema = z.object({
  url: webhookUrl,
  description: z
    .string({ message: fieldMessages.string('description') })
    .trim()
    .max(255, { message: fieldMessages.max('description', 255) })
    .nullish()
    .transform((v) => v ?? ''),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { message: fieldMessages.in('event') }), { message: MESSAGES.webhookEventsRequired })
    .min(1, { message: MESSAGES.webhookEventsRequired })
    .transform((events) => WEBHOOK_EVENT_TYPES.filter((e) => events.includes(e))),
  enabled: z.boolean({ message: fieldMessages.boolean('enabled') }).default(true),
});

export type WebhookEndpointBody = z.output<typeof webhookEndpointSchema>;

/** An endpoint as the admin API shows it (the secret only in the creation answer). */
export interface WebhookEndpointResource {
  id: number;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  secret_hint: string;
  secret?: string;
  created_at: string | null;
  updated_at: string | null;
}

export interface WebhookAttemptResource {
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
  at: string | null;
  /** The Standard Webhooks headers the attempt was sent with (null for attempts that sent nothing). */
  headers: { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } | null;
}

export interface WebhookDeliveryResource {
  id: number;
  endpoint_id: number;
  event_id: string;
  type: string;
  status: 'pending' | 'sending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string | null;
  payload: unknown;
  attempt_log: WebhookAttemptResource[];
}
