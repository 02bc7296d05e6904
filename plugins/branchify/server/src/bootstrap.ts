import type { Strapi } from './utils/strapi';
import { getService } from './utils/services';

const PRUNE_EVERY_MS = 10 * 60_000;

export default ({ strapi }: { strapi: Strapi }) => {
  // Old rate-limit windows are worthless; keep the table small.
  const timer = setInterval(() => {
    getService(strapi, 'rateLimit')
      .prune()
      .catch((error: Error) => strapi.log.warn(`[branchify] rate-limit prune failed: ${error.message}`));
  }, PRUNE_EVERY_MS);
  timer.unref();

  // The mail outbox worker (its interval timer is unref'd; enqueue also kicks it at once).
  getService(strapi, 'mail-outbox').start();
};
