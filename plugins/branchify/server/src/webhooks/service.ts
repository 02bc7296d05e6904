import crypto from 'node:crypto';
import fs from 'node:fs';
import {
  MESSAGES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  type WebhookAttemptResource,
  type WebhookDeliveryResource,
  type WebhookEndpointBody,
  type WebhookEndpointResource,
  type WebhookEventType,
} from '@branchify/shared';
import { env } from '@branchify/shared/node';
import type { Knex } from 'knex';
import { conflict, notFound, validationError } from '../http/errors';
import type { ListQuery } from '../http/paging';
import { maskKey } from '../utils/masked-secret';
import { seal, unseal } from '../utils/secret-box';
import { query, UID, type Strapi } from '../utils/strapi';
import { WorkerLoop } from '../utils/worker-loop';
import { resolveTarget, WebhookAddressError } from './address';
import { ATTEMPTS, DELIVERIES, deliveryQueue, type DeliveryRow } from './queue';
import { sendOnce, type AttemptOutcome } from './sender';
import { sign, SIGNATURE_HEADER, newSecret } from './signature';

export interface EndpointRow {
  id: number;
  url: string;
  description: string | null;
  events: string[] | string | null;
  secret_encrypted: string;
  enabled: boolean | number | null;
  created_by: number | null;
  createdAt?: string | Date | null;
  updatedAt?: string | Date | null;
}

/** One event to announce; `source` (a client event id) makes a retried request announce it once. */
export interface WebhookEvent {
  source?: string;
  data: Record<string, unknown>;
}

const SECRET = 'webhooks.secret';

const iso = (v: string | number | Date | null | undefined) =>
  v === null || v === undefined || v === '' ? null : new Date(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v).toISOString();
const eventsOf = (row: Pick<EndpointRow, 'events'>): WebhookEventType[] => {
  const raw = typeof row.events === 'string' ? (JSON.parse(row.events) as unknown) : row.events;
  return Array.isArray(raw) ? WEBHOOK_EVENT_TYPES.filter((e) => raw.includes(e)) : [];
};

const present = (row: EndpointRow, secret?: string): WebhookEndpointResource => {
  let hint = 'whsec_****';
  try {
    hint = maskKey(unseal(row.secret_encrypted, SECRET));
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

/**
 * Outgoing webhooks: endpoints an admin registers, and the delivery queue. An event becomes one
 * delivery row per endpoint that wants it, written in the caller's transaction (or right after
 * its write); the worker on every app node sends due rows signed with the endpoint's secret,
 * retrying with exponential backoff. Ingest only pays for this when an enabled endpoint wants the
 * event type (the list of endpoints is cached briefly).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const endpoints = () => query(strapi, UID.webhookEndpoint);
  const knex = () => strapi.db.connection;

  let cached: { at: number; list: Array<{ id: number; events: Set<string> }> } | null = null;
  let loading: Promise<Array<{ id: number; events: Set<string> }>> | null = null;

  const enabledEndpoints = async () => {
    const ttl = env().WEBHOOKS_ENDPOINT_CACHE_SECONDS * 1000;
    if (cached && Date.now() - cached.at < ttl) return cached.list;
    loading ??= (async () => {
      try {
        const rows = await endpoints().findMany({ where: { enabled: true }, select: ['id', 'events'] });
        const list = rows.map((r) => ({ id: r.id, events: new Set<string>(eventsOf(r)) }));
        cached = { at: Date.now(), list };
        return list;
      } finally {
        loading = null;
      }
    })();
    return loading;
  };

  let caFile: { path: string; pem: string } | null = null;
  const ca = (): string | undefined => {
    const file = env().WEBHOOKS_CA_FILE;
    if (!file) return undefined;
    if (caFile?.path !== file) caFile = { path: file, pem: fs.readFileSync(file, 'utf8') };
    return caFile.pem;
  };
  const allowed = () => env().WEBHOOKS_ALLOWED_PRIVATE_ADDRESSES ?? [];

  /** Refuses a URL the worker would refuse: not https, unresolvable, or reaching a private address. */
  const checkUrl = async (url: string): Promise<void> => {
    try {
      await resolveTarget(url, allowed());
    } catch (error) {
      if (error instanceof WebhookAddressError) throw validationError({ url: [error.message] });
      throw error;
    }
  };

  const send = async (row: DeliveryRow, attempt: number): Promise<AttemptOutcome> => {
    const endpoint = await endpoints().findOne({ where: { id: row.endpoint_id } });
    if (!endpoint) return { ok: false, status_code: null, error: MESSAGES.webhookEndpointDeleted, duration_ms: 0, permanent: true };
    if (!endpoint.enabled) return { ok: false, status_code: null, error: MESSAGES.webhookEndpointDisabled, duration_ms: 0, permanent: true };
    let secret: string;
    try {
      secret = unseal(endpoint.secret_encrypted, SECRET);
    } catch {
      return { ok: false, status_code: null, error: 'The signing secret cannot be decrypted (was ENCRYPTION_KEY changed?).', duration_ms: 0, permanent: true };
    }
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'Branchify-Webhooks/1',
      'Branchify-Event': row.type,
      'Branchify-Delivery': String(row.id),
      'Branchify-Attempt': String(attempt),
      [SIGNATURE_HEADER]: sign(secret, row.payload, Math.floor(Date.now() / 1000)),
    };
    return sendOnce(endpoint.url, row.payload, headers, { timeoutMs: env().WEBHOOKS_TIMEOUT_MS, ca: ca(), allowed: allowed() });
  };

  const backoffMs = (attempts: number) => {
    const e = env();
    return Math.min(e.WEBHOOKS_RETRY_MAX_MS, e.WEBHOOKS_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  };
  const queue = deliveryQueue(knex, {
    leaseMs: Math.max(60_000, env().WEBHOOKS_TIMEOUT_MS * 3),
    backoffMs,
    send,
    onAttempt: (row, attempt, outcome, gaveUp) => {
      if (outcome.ok) strapi.log.debug(`[webhooks] ${row.type} delivery ${row.id} to endpoint ${row.endpoint_id} succeeded (attempt ${attempt})`);
      else
        strapi.log.warn(
          `[webhooks] ${row.type} delivery ${row.id} to endpoint ${row.endpoint_id} attempt ${attempt} failed: ${outcome.error}${gaveUp ? ' (giving up)' : ''}`,
        );
    },
  });

  /** Writes delivery rows (ignoring ones already queued for the same event), then wakes the worker. */
  const insert = async (rows: object[]): Promise<void> => {
    if (!rows.length) return;
    const write = (k: Knex) => k(DELIVERIES).insert(rows).onConflict(['endpoint_id', 'event_id']).ignore();
    if (strapi.db.inTransaction()) {
      // Queued inside a transaction, the rows are the worker's only once committed (and never if not).
      await strapi.db.transaction(async ({ trx, onCommit }) => {
        await write(trx);
        onCommit(() => service.kick());
      });
    } else {
      await write(knex());
      service.kick();
    }
  };

  const rowFor = (endpointId: number, type: string, eventId: string, data: Record<string, unknown>, now: Date) => ({
    endpoint_id: endpointId,
    event_id: eventId,
    type,
    payload: JSON.stringify({ id: eventId, type, created: Math.floor(now.getTime() / 1000), data }),
    status: 'pending',
    attempts: 0,
    max_attempts: env().WEBHOOKS_MAX_ATTEMPTS,
    next_attempt_ms: now.getTime(),
    created_at: now,
    updated_at: now,
  });

  const eventId = (type: string, source?: string) =>
    source ? `evt_${crypto.createHash('sha256').update(`${type}:${source}`).digest('hex').slice(0, 32)}` : `evt_${crypto.randomBytes(16).toString('hex')}`;

  const presentDelivery = (row: Record<string, unknown>, attempts: WebhookAttemptResource[]): WebhookDeliveryResource => {
    let payload: unknown = null;
    try {
      payload = JSON.parse(String(row.payload));
    } catch {
      payload = null;
    }
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
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

  const worker = new WorkerLoop(
    async (isStopped) => (await queue.pass(isStopped)).full,
    (error) => strapi.log.error(`[webhooks] delivery pass failed: ${error.message}`),
  );

  const service = {
    // Endpoints (admin)

    async list(q: ListQuery): Promise<{ rows: WebhookEndpointResource[]; total: number }> {
      const where = q.search ? { $or: [{ url: { $containsi: q.search } }, { description: { $containsi: q.search } }] } : {};
      const [rows, total] = await Promise.all([
        endpoints().findMany({ where, orderBy: { id: 'asc' }, offset: q.offset, limit: q.perPage }),
        endpoints().count({ where }),
      ]);
      return { rows: rows.map((r) => present(r)), total };
    },

    async find(id: number): Promise<WebhookEndpointResource> {
      const row = await endpoints().findOne({ where: { id } });
      if (!row) throw notFound();
      return present(row);
    },

    /** Registers an endpoint; the answer carries its signing secret, the only time it is shown. */
    async create(input: WebhookEndpointBody, adminId: number): Promise<WebhookEndpointResource> {
      await checkUrl(input.url);
      const secret = newSecret();
      const row = await endpoints().create({
        data: {
          url: input.url,
          description: input.description,
          events: input.events,
          enabled: input.enabled,
          secret_encrypted: seal(secret, SECRET),
          created_by: adminId,
        },
      });
      cached = null;
      return present(row, secret);
    },

    async update(id: number, input: WebhookEndpointBody): Promise<WebhookEndpointResource> {
      const existing = await endpoints().findOne({ where: { id } });
      if (!existing) throw notFound();
      await checkUrl(input.url);
      const row = await endpoints().update({
        where: { id },
        data: { url: input.url, description: input.description, events: input.events, enabled: input.enabled },
      });
      cached = null;
      return present(row);
    },

    /** Deletes the endpoint with its deliveries and their attempts. */
    async remove(id: number): Promise<void> {
      const existing = await endpoints().findOne({ where: { id }, select: ['id'] });
      if (!existing) throw notFound();
      await strapi.db.transaction(async ({ trx }) => {
        await trx(ATTEMPTS)
          .whereIn('delivery_id', trx(DELIVERIES).select('id').where({ endpoint_id: id }))
          .delete();
        await trx(DELIVERIES).where({ endpoint_id: id }).delete();
      });
      await endpoints().delete({ where: { id } });
      cached = null;
    },

    // Events

    /** Whether any enabled endpoint wants this event type (cheap: the list is cached). */
    async wants(type: WebhookEventType): Promise<boolean> {
      return (await enabledEndpoints()).some((e) => e.events.has(type));
    },

    /** Queues the events for every enabled endpoint that wants their type; nothing when none does. */
    async emit(type: WebhookEventType, events: WebhookEvent[]): Promise<void> {
      if (!events.length) return;
      const targets = (await enabledEndpoints()).filter((e) => e.events.has(type));
      if (!targets.length) return;
      const now = new Date();
      const rows = events.flatMap((event) => {
        const id = eventId(type, event.source);
        return targets.map((t) => rowFor(t.id, type, id, event.data, now));
      });
      await insert(rows);
    },

    /** A `webhook.test` event for one endpoint, whatever it subscribes to. */
    async sendTest(id: number): Promise<WebhookDeliveryResource> {
      const endpoint = await service.find(id);
      const now = new Date();
      const event = eventId(WEBHOOK_TEST_EVENT);
      await insert([rowFor(id, WEBHOOK_TEST_EVENT, event, { endpoint: { id, url: endpoint.url }, message: 'This is a test event from Branchify.' }, now)]);
      const row = await knex()(DELIVERIES).where({ endpoint_id: id, event_id: event }).first();
      return presentDelivery(row, []);
    },

    // The delivery log

    async deliveries(endpointId: number, q: ListQuery): Promise<{ rows: WebhookDeliveryResource[]; total: number }> {
      await service.find(endpointId);
      const base = () => {
        const b = knex()(DELIVERIES).where({ endpoint_id: endpointId });
        if (q.search) b.andWhere((w) => w.where('type', 'like', `%${q.search}%`).orWhere('event_id', 'like', `%${q.search}%`));
        return b;
      };
      const [{ count }] = await base().count<Array<{ count: number | string }>>({ count: '*' });
      const rows: Array<Record<string, unknown>> = await base().orderBy('id', 'desc').offset(q.offset).limit(q.perPage).select('*');
      const ids = rows.map((r) => Number(r.id));
      const attempts: Array<Record<string, unknown>> = ids.length
        ? await knex()(ATTEMPTS)
            .whereIn('delivery_id', ids)
            .orderBy([{ column: 'delivery_id' }, { column: 'attempt' }])
            .select('*')
        : [];
      const byDelivery = new Map<number, WebhookAttemptResource[]>();
      for (const a of attempts) {
        const list = byDelivery.get(Number(a.delivery_id)) ?? [];
        list.push({
          attempt: Number(a.attempt),
          status_code: a.status_code === null || a.status_code === undefined ? null : Number(a.status_code),
          error: (a.error as string | null) ?? null,
          duration_ms: a.duration_ms === null || a.duration_ms === undefined ? null : Number(a.duration_ms),
          at: iso(a.created_at as string | null),
        });
        byDelivery.set(Number(a.delivery_id), list);
      }
      return { rows: rows.map((r) => presentDelivery(r, byDelivery.get(Number(r.id)) ?? [])), total: Number(count) };
    },

    /** Sends a delivery again now, with a fresh round of attempts; refused while it is being sent. */
    async resend(deliveryId: number): Promise<WebhookDeliveryResource> {
      const row = await knex()(DELIVERIES).where({ id: deliveryId }).first();
      if (!row) throw notFound();
      const attempts = Number(row.attempts ?? 0);
      const count = await knex()(DELIVERIES)
        .where({ id: deliveryId, attempts })
        .whereNot({ status: 'sending' })
        .update({ status: 'pending', max_attempts: attempts + env().WEBHOOKS_MAX_ATTEMPTS, next_attempt_ms: Date.now(), updated_at: new Date() });
      if (count !== 1) throw conflict(MESSAGES.webhookDeliverySending);
      service.kick();
      return presentDelivery(await knex()(DELIVERIES).where({ id: deliveryId }).first(), []);
    },

    /** Deletes finished deliveries (and their attempts) older than the retention period. */
    async prune(): Promise<number> {
      const cutoff = new Date(Date.now() - env().WEBHOOKS_RETENTION_DAYS * 86_400_000);
      const old = () => knex()(DELIVERIES).select('id').whereIn('status', ['succeeded', 'failed']).andWhere('updated_at', '<', cutoff);
      await knex()(ATTEMPTS).whereIn('delivery_id', old()).delete();
      return knex()(DELIVERIES).whereIn('id', old()).delete();
    },

    // The worker

    kick(): void {
      worker.kick();
    },

    /** Runs passes until nothing due is left; concurrent calls in one process share one run. */
    drain(): Promise<void> {
      return worker.drain();
    },

    start(): void {
      worker.start(env().WEBHOOKS_WORKER_INTERVAL_MS);
    },

    stop(): Promise<void> {
      return worker.stop();
    },
  };
  return service;
};
