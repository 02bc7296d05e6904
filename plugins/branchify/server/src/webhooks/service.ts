import type { Strapi } from '../utils/strapi';
import { deliveryLog } from './deliveries';
import { webhookEvents } from './emit';
import { webhookEndpoints } from './endpoints';
import { deliveryWorker } from './worker';

/**
 * Outgoing webhooks: endpoints an admin registers (endpoints.ts), events queued as one delivery
 * per endpoint that wants them (emit.ts), the worker on every app node that sends them (worker.ts)
 * and the delivery log (deliveries.ts). Ingest only pays for this when an enabled endpoint wants
 * the event type (the list of endpoints is cached briefly).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const worker = deliveryWorker(strapi);
  const endpoints = webhookEndpoints(strapi);
  const events = webhookEvents(strapi, { enabled: endpoints.enabled, findEndpoint: endpoints.find, kick: worker.kick });
  const log = deliveryLog(strapi, { findEndpoint: endpoints.find, kick: worker.kick });

  return {
    // Endpoints (admin)
    list: endpoints.list,
    find: endpoints.find,
    create: endpoints.create,
    update: endpoints.update,
    remove: endpoints.remove,

    // Events
    wants: events.wants,
    emit: events.emit,
    sendTest: events.sendTest,

    // The delivery log
    deliveries: log.list,
    resend: log.resend,
    prune: log.prune,

    // The worker
    kick: worker.kick,
    drain: worker.drain,
    start: worker.start,
    stop: worker.stop,
  };
};
