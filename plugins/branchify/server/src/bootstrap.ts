import { env } from '@branchify/shared/node';
import type { Strapi } from './utils/strapi';
import { getService } from './utils/services';
import { postgresClusterLock } from './billing/cluster-lock';
import { ensureForeignKeys, type ForeignKeyReport } from './content-types/foreign-keys';
import { ensureForeignKeysSqlite } from './content-types/foreign-keys-sqlite';
import { shareLocksAcrossProcesses } from './billing/customer-lock';
import { bumpCachesOnWrites } from './operations/cache-triggers';
import { endSessionsOnPasswordWrites } from './users/password-writes';
import { sweepUploadTmp } from './middlewares/multipart';
import { processLoad } from './operations/load';
import { collectUnusedImages } from './uploads/collect';

const PRUNE_EVERY_MS = 10 * 60_000;

export default async ({ strapi }: { strapi: Strapi }) => {
  // How late the event loop runs, for the operations endpoint.
  processLoad.start();
  // Constraints Strapi's schema cannot declare (partial unique indexes).
  await getService(strapi, 'billing').ensureConstraints();
  await getService(strapi, 'users').ensureConstraints();

  // References between our tables, enforced by the database.
  const postgres = strapi.db.dialect.client === 'postgres';
  const keys: ForeignKeyReport = postgres
    ? await ensureForeignKeys(strapi.db.connection, env().DATABASE_SCHEMA)
    : await ensureForeignKeysSqlite(strapi.db.connection);
  if (keys.added.length) strapi.log.info(`[schema] foreign keys added: ${keys.added.join(', ')}`);
  if (keys.unvalidated.length)
    strapi.log.warn(`[schema] rows point at nothing; these foreign keys hold for new rows only until they are cleaned up: ${keys.unvalidated.join(', ')}`);

  if (postgres) {
    // Billing locks hold across every app process on the same PostgreSQL database.
    await shareLocksAcrossProcesses(postgresClusterLock(strapi.db.connection, env().DATABASE_SCHEMA, env().BILLING_LOCK_WAIT_MS));
  }

  // Analytics counters for rows stored without them (before counters existed, or loaded in bulk),
  // built in the background while the app serves.
  await getService(strapi, 'analytics').prepareBuilds();
  getService(strapi, 'analytics').startBuilds();

  // Rate-limit counters in Redis when configured: connected before the first request.
  await getService(strapi, 'rateLimit').ready();

  // Per-process caches follow a version in the database, so a write through any node reaches all.
  bumpCachesOnWrites(strapi);
  // A password written by any path ends the user's sessions.
  endSessionsOnPasswordWrites(strapi);

  // Old rate-limit windows are worthless; keep the table small.
  let imagesFrom = 0;
  const timer = setInterval(() => {
    collectUnusedImages(strapi, imagesFrom)
      .then(({ next }) => (imagesFrom = next))
      .catch((error: Error) => strapi.log.warn(`[branchify] unused-image sweep failed: ${error.message}`));
    getService(strapi, 'rateLimit')
      .prune()
      .catch((error: Error) => strapi.log.warn(`[branchify] rate-limit prune failed: ${error.message}`));
    getService(strapi, 'mail-outbox')
      .prune()
      .catch((error: Error) => strapi.log.warn(`[branchify] mail outbox prune failed: ${error.message}`));
    getService(strapi, 'webhooks')
      .prune()
      .catch((error: Error) => strapi.log.warn(`[branchify] webhook deliveries prune failed: ${error.message}`));
  }, PRUNE_EVERY_MS);
  timer.unref();

  // Upload temp folders of requests a crashed process never finished.
  await sweepUploadTmp(strapi);

  // The mail outbox worker (its interval timer is unref'd; enqueue also kicks it at once).
  getService(strapi, 'mail-outbox').start();
  // The webhook delivery worker, likewise.
  getService(strapi, 'webhooks').start();
};
