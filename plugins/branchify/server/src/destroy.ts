import type { Strapi } from './utils/strapi';
import { getService } from './utils/services';
import { shareLocksAcrossProcesses } from './billing/customer-lock';
import { offload } from './offload/pool';
import { processLoad } from './operations/load';

/** Stops background work before Strapi closes the database. */
export default async ({ strapi }: { strapi: Strapi }) => {
  await getService(strapi, 'analytics').stopBuilds();
  await getService(strapi, 'mail-outbox').stop();
  await getService(strapi, 'webhooks').stop();
  await getService(strapi, 'rateLimit').close();
  await offload.close();
  processLoad.stop();
  // Gives the lock connection back (held locks end with it) before the pool closes.
  await shareLocksAcrossProcesses(null);
};
