import type { WebhookEndpointBody, WebhookEndpointResource } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { notFound, validationError } from '../http/errors';
import type { ListQuery } from '../http/paging';
import { durableTransaction } from '../utils/durable-transaction';
import { seal } from '../utils/secret-box';
import { query, UID, type Strapi, type TypedQuery } from '../utils/strapi';
import { allowedPrivateAddresses, resolveTarget, WebhookAddressError } from './address';
import { eventsOf, presentEndpoint } from './present';
import { ATTEMPTS, DELIVERIES } from './queue';
import { newSecret, SECRET_PURPOSE } from './signature';
import type { EndpointRow } from '../content-types/webhook-endpoint';

/** An enabled endpoint and the event types it wants. */
export interface EnabledEndpoint {
  id: number;
  events: Set<string>;
}

/** Refuses a URL the worker would refuse: not https, unresolvable, or reaching a private address. */
const checkUrl = async (url: string): Promise<void> => {
  try {
    await resolveTarget(url, allowedPrivateAddresses());
  } catch (error) {
    if (error instanceof WebhookAddressError) throw validationError({ url: [error.message] });
    throw error;
  }
};

/** The enabled endpoints, read at most once per WEBHOOKS_ENDPOINT_CACHE_SECONDS (concurrent reads share one query). */
const enabledCache = (endpoints: () => TypedQuery<EndpointRow>) => {
  let cached: { at: number; list: EnabledEndpoint[] } | null = null;
  let loading: Promise<EnabledEndpoint[]> | null = null;
  return {
    get: async (): Promise<EnabledEndpoint[]> => {
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
    },
    clear: (): void => {
      cached = null;
    },
  };
};

/**
 * The endpoints an admin registers, and the list of enabled ones events are matched against
 * (cached briefly; every change here clears it).
 */
export const webhookEndpoints = (strapi: Strapi) => {
  const endpoints = () => query(strapi, UID.webhookEndpoint);
  const cache = enabledCache(endpoints);

  const find = async (id: number): Promise<WebhookEndpointResource> => {
    const row = await endpoints().findOne({ where: { id } });
    if (!row) throw notFound();
    return presentEndpoint(row);
  };

  return {
    enabled: cache.get,
    find,

    list: async (q: ListQuery): Promise<{ rows: WebhookEndpointResource[]; total: number }> => {
      const where = q.search ? { $or: [{ url: { $containsi: q.search } }, { description: { $containsi: q.search } }] } : {};
      const [rows, total] = await Promise.all([
        endpoints().findMany({ where, orderBy: { id: 'asc' }, offset: q.offset, limit: q.perPage }),
        endpoints().count({ where }),
      ]);
      return { rows: rows.map((r) => presentEndpoint(r)), total };
    },

    /** Registers an endpoint; the answer carries its signing secret, the only time it is shown. */
    create: async (input: WebhookEndpointBody, adminId: number): Promise<WebhookEndpointResource> => {
      await checkUrl(input.url);
      const secret = newSecret();
      const row = await endpoints().create({
        data: {
          url: input.url,
          description: input.description,
          events: input.events,
          enabled: input.enabled,
          secret_encrypted: seal(secret, SECRET_PURPOSE),
          created_by: adminId,
        },
      });
      cache.clear();
      return presentEndpoint(row, secret);
    },

    update: async (id: number, input: WebhookEndpointBody): Promise<WebhookEndpointResource> => {
      const existing = await endpoints().findOne({ where: { id } });
      if (!existing) throw notFound();
      await checkUrl(input.url);
      const row = await endpoints().update({
        where: { id },
        data: { url: input.url, description: input.description, events: input.events, enabled: input.enabled },
      });
      cache.clear();
      return presentEndpoint(row);
    },

    /** Deletes the endpoint with its deliveries and their attempts. */
    remove: async (id: number): Promise<void> => {
      const existing = await endpoints().findOne({ where: { id }, select: ['id'] });
      if (!existing) throw notFound();
      await durableTransaction(strapi, async ({ trx }) => {
        await trx(ATTEMPTS)
          .whereIn('delivery_id', trx(DELIVERIES).select('id').where({ endpoint_id: id }))
          .delete();
        await trx(DELIVERIES).where({ endpoint_id: id }).delete();
      });
      await endpoints().delete({ where: { id } });
      cache.clear();
    },
  };
};
