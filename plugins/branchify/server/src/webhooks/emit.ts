import crypto from 'node:crypto';
import { WEBHOOK_PAYLOAD_VERSION, WEBHOOK_TEST_EVENT, type WebhookDeliveryResource, type WebhookEventType } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import type { Knex } from 'knex';
import { durableTransaction } from '../utils/durable-transaction';
import type { Strapi } from '../utils/strapi';
import { anonymousBound, type AnonymousSource } from './anonymous';
import type { EnabledEndpoint } from './endpoints';
import { presentDelivery } from './present';
import { DELIVERIES } from './queue';

/** One event to announce; `source` (a client event id) makes a retried request announce it once. */
export interface WebhookEvent {
  source?: string;
  /** The view an anonymous viewer's event happened in (its per-view cap: webhooks/anonymous.ts). */
  view?: string;
  data: Record<string, unknown>;
}

const rowFor = (endpointId: number, type: string, eventId: string, data: Record<string, unknown>, now: Date) => ({
  endpoint_id: endpointId,
  event_id: eventId,
  type,
  payload: JSON.stringify({ id: eventId, type, version: WEBHOOK_PAYLOAD_VERSION, created: Math.floor(now.getTime() / 1000), data }),
  status: 'pending',
  attempts: 0,
  max_attempts: env().WEBHOOKS_MAX_ATTEMPTS,
  next_attempt_ms: now.getTime(),
  created_at: now,
  updated_at: now,
});

const eventId = (type: string, source?: string) =>
  source ? `evt_${crypto.createHash('sha256').update(`${type}:${source}`).digest('hex').slice(0, 32)}` : `evt_${crypto.randomBytes(16).toString('hex')}`;

/**
 * Events becoming deliveries: one row per endpoint that wants the event, written in the caller's
 * transaction (or right after its write); the worker is woken once the rows are committed.
 */
export const webhookEvents = (
  strapi: Strapi,
  deps: {
    /** The enabled endpoints (cached). */
    enabled: () => Promise<EnabledEndpoint[]>;
    /** An endpoint; refuses one that does not exist (404). */
    findEndpoint: (id: number) => Promise<{ url: string }>;
    /** Wakes the delivery worker. */
    kick: () => void;
  },
) => {
  const knex = () => strapi.db.connection;
  const bound = anonymousBound(strapi);

  /** Writes delivery rows (ignoring ones already queued for the same event), then wakes the worker. */
  const insert = async (rows: object[]): Promise<void> => {
    if (!rows.length) return;
    const write = (k: Knex) => k(DELIVERIES).insert(rows).onConflict(['endpoint_id', 'event_id']).ignore();
    if (strapi.db.inTransaction()) {
      // Queued inside a transaction, the rows are the worker's only once committed (and never if not).
      await durableTransaction(strapi, async ({ trx, onCommit }) => {
        await write(trx);
        onCommit(() => deps.kick());
      });
    } else {
      await write(knex());
      deps.kick();
    }
  };

  return {
    /** Whether any enabled endpoint wants this event type (cheap: the list is cached). */
    wants: async (type: WebhookEventType): Promise<boolean> => {
      return (await deps.enabled()).some((e) => e.events.has(type));
    },

    /**
     * Queues the events for every enabled endpoint that wants their type; nothing when none does.
     * Events an anonymous viewer triggered (`from`) are queued within their view's and their
     * address's bounds only (webhooks/anonymous.ts), counted only when an endpoint wants them.
     */
    emit: async (type: WebhookEventType, events: WebhookEvent[], from?: AnonymousSource): Promise<void> => {
      if (!events.length) return;
      const targets = (await deps.enabled()).filter((e) => e.events.has(type));
      if (!targets.length) return;
      const announced = from ? await bound(type, events, from) : events;
      if (!announced.length) return;
      const now = new Date();
      const rows = announced.flatMap((event) => {
        const id = eventId(type, event.source);
        return targets.map((t) => rowFor(t.id, type, id, event.data, now));
      });
      await insert(rows);
    },

    /** A `webhook.test` event for one endpoint, whatever it subscribes to. */
    sendTest: async (id: number): Promise<WebhookDeliveryResource> => {
      const endpoint = await deps.findEndpoint(id);
      const now = new Date();
      const event = eventId(WEBHOOK_TEST_EVENT);
      await insert([rowFor(id, WEBHOOK_TEST_EVENT, event, { endpoint: { id, url: endpoint.url }, message: 'This is a test event from Branchify.' }, now)]);
      const row = await knex()<Record<string, unknown>>(DELIVERIES).where({ endpoint_id: id, event_id: event }).first();
      return presentDelivery(row!, []);
    },
  };
};
