import { MESSAGES, type WebhookAttemptResource, type WebhookDeliveryResource } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { conflict, notFound } from '../http/errors';
import type { ListQuery } from '../http/paging';
import type { Strapi } from '../utils/strapi';
import { presentAttempt, presentDelivery } from './present';
import { ATTEMPTS, DELIVERIES } from './queue';

/** The delivery log of an endpoint (each delivery with its attempts), a resend, and the pruning of old deliveries. */
export const deliveryLog = (
  strapi: Strapi,
  deps: {
    /** Refuses an endpoint that does not exist (404). */
    findEndpoint: (id: number) => Promise<unknown>;
    /** Wakes the delivery worker. */
    kick: () => void;
  },
) => {
  const knex = () => strapi.db.connection;
  /** Rows as the presenters read them (column by column). */
  type Loose = Record<string, unknown>;

  /** Each delivery's attempts (the Standard Webhooks id of each is its delivery's event id). */
  const attemptsOf = async (deliveries: Loose[]): Promise<Map<number, WebhookAttemptResource[]>> => {
    const deliveryIds = deliveries.map((d) => Number(d.id));
    const eventIds = new Map(deliveries.map((d) => [Number(d.id), String(d.event_id)]));
    const attempts = deliveryIds.length
      ? await knex()<Loose>(ATTEMPTS)
          .whereIn('delivery_id', deliveryIds)
          .orderBy([{ column: 'delivery_id' }, { column: 'attempt' }])
          .select('*')
      : [];
    const byDelivery = new Map<number, WebhookAttemptResource[]>();
    for (const a of attempts) {
      const list = byDelivery.get(Number(a.delivery_id)) ?? [];
      list.push(presentAttempt(a, eventIds.get(Number(a.delivery_id))!));
      byDelivery.set(Number(a.delivery_id), list);
    }
    return byDelivery;
  };

  return {
    /** An endpoint's deliveries, newest first, searchable by event type or id. */
    list: async (endpointId: number, q: ListQuery): Promise<{ rows: WebhookDeliveryResource[]; total: number }> => {
      await deps.findEndpoint(endpointId);
      const base = () => {
        const b = knex()<Loose>(DELIVERIES).where({ endpoint_id: endpointId });
        if (q.search)
          b.andWhere((w) => {
            w.where('type', 'like', `%${q.search}%`).orWhere('event_id', 'like', `%${q.search}%`);
          });
        return b;
      };
      const [{ count } = { count: 0 }] = await base().count<Array<{ count: number | string }>>({ count: '*' });
      const rows = await base().orderBy('id', 'desc').offset(q.offset).limit(q.perPage).select('*');
      const byDelivery = await attemptsOf(rows);
      return { rows: rows.map((r) => presentDelivery(r, byDelivery.get(Number(r.id)) ?? [])), total: Number(count) };
    },

    /** Sends a delivery again now, with a fresh round of attempts; refused while it is being sent. */
    resend: async (deliveryId: number): Promise<WebhookDeliveryResource> => {
      const row = await knex()<Loose>(DELIVERIES).where({ id: deliveryId }).first();
      if (!row) throw notFound();
      const attempts = Number(row.attempts ?? 0);
      const count = await knex()(DELIVERIES)
        .where({ id: deliveryId, attempts })
        .whereNot({ status: 'sending' })
        .update({ status: 'pending', max_attempts: attempts + env().WEBHOOKS_MAX_ATTEMPTS, next_attempt_ms: Date.now(), updated_at: new Date() });
      if (count !== 1) throw conflict(MESSAGES.webhookDeliverySending);
      deps.kick();
      return presentDelivery((await knex()<Loose>(DELIVERIES).where({ id: deliveryId }).first())!, []);
    },

    /** Deletes finished deliveries (and their attempts) older than the retention period. */
    prune: async (): Promise<number> => {
      const cutoff = new Date(Date.now() - env().WEBHOOKS_RETENTION_DAYS * 86_400_000);
      const old = () => knex()(DELIVERIES).select('id').whereIn('status', ['succeeded', 'failed']).andWhere('updated_at', '<', cutoff);
      await knex()(ATTEMPTS).whereIn('delivery_id', old()).delete();
      return knex()(DELIVERIES).whereIn('id', old()).delete();
    },
  };
};
