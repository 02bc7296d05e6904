import type { Strapi } from './utils/strapi';
import { getService } from './utils/services';

/** Stops background work before Strapi closes the database. */
export default async ({ strapi }: { strapi: Strapi }) => {
  await getService(strapi, 'mail-outbox').stop();
};
