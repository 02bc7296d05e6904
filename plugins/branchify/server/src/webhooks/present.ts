import {
  WEBHOOK_EVENT_TYPES,
  type WebhookAttemptResource,
  type WebhookDeliveryResource,
  type WebhookEndpointResource,
  type WebhookEventType,
} from '@branchify/shared';
import { maskKey } from '../utils/masked-secret';
import { unseal } from '../utils/secret-box';
import { SECRET_PURPOSE } from './signature';
import type { EndpointRow } from '../content-types/webhook-endpoint';

/** A database timestamp (a date, an ISO string or epoch milliseconds as text) as ISO, or null. */
const iso = (v: string | number | Date | null | undefined) =>
  v === null || v === undefined || v === '' ? null : new Date(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v).toISOString();

/** The event types an endpoint subscribes to (known ones only, in their canonical order). */
export const eventsOf = (row: Pick<EndpointRow, 'events'>): WebhookEventType[] => {
  const raw = typeof row.events === 'string' ? (JSON.parse(row.events) as unknown) : row.events;
  return Array.isArray(raw) ? WEBHOOK_EVENT_TYPES.filter((e) => raw.includes(e)) : [];
};

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** An endpoint as the API shows it: its secret masked, or whole when just created (`secret`). */
export const presentEndpoint = (row: EndpointRow, secret?: string): WebhookEndpointResource => {
  let hint = 'whsec_****';
  try {
    hint = maskKey(unseal(row.secret_encrypted, SECRET_PURPOSE));
  } catch {
    // An undecryptable secret (ENCRYPTION_KEY changed) shows only its kind.
  }
  return {
    id: row.id,
    url: row.url,
    description: row.description ?? '',
    events: eventsOf(row),
    enabled: Boolean(row.enabled),
    secret_hint: hint,
    ...(secret ? { secret } : {}),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
};

/** The Standard Webhooks headers an attempt was sent with; null for one that sent nothing (or predates them). */
const sentHeaders = (a: Record<string, unknown>, eventId: string): WebhookAttemptResource['headers'] => {
  const timestamp = num(a.webhook_timestamp);
  const signature = typeof a.webhook_signature === 'string' ? a.webhook_signature : null;
  return timestamp !== null && signature ? { 'webhook-id': eventId, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature } : null;
};

/** An attempt of the delivery of event `eventId`: its outcome and the Standard Webhooks headers it carried. */
export const presentAttempt = (a: Record<string, unknown>, eventId: string): WebhookAttemptResource => ({
  attempt: Number(a.attempt),
  status_code: num(a.status_code),
  error: (a.error as string | null) ?? null,
  duration_ms: num(a.duration_ms),
  at: iso(a.created_at as string | null),
  headers: sentHeaders(a, eventId),
});

export const presentDelivery = (row: Record<string, unknown>, attempts: WebhookAttemptResource[]): WebhookDeliveryResource => {
  let payload: unknown = null;
  try {
    payload = JSON.parse(String(row.payload));
  } catch {
    payload = null;
  }
  return {
    id: Number(row.id),
    endpoint_id: Number(row.endpoint_id),
    event_id: String(row.event_id),
    type: String(row.type),
    status: row.status as WebhookDeliveryResource['status'],
    attempts: Number(row.attempts ?? 0),
    next_attempt_at: row.next_attempt_ms === null || row.next_attempt_ms === undefined ? null : new Date(Number(row.next_attempt_ms)).toISOString(),
    last_status_code: num(row.last_status_code),
    last_error: (row.last_error as string | null) ?? null,
    delivered_at: iso(row.delivered_at as string | null),
    created_at: iso(row.created_at as string | null),
    payload,
    attempt_log: attempts,
  };
};
