import net from 'node:net';
import { env } from '@branchify/shared/node';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { processState } from './state';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const openConnections = (server: net.Server): Promise<number> => new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));

/**
 * The graceful shutdown (SIGTERM/SIGINT in scripts/start.js): readiness answers 503 at once; the
 * listener closes (a proxy moves new requests to the other processes); requests in flight finish
 * and keep-alive connections close after their next answer, for up to SHUTDOWN_GRACE_MS; then the
 * queued view and interaction events are written, the mail outbox makes one pass, and Strapi
 * closes the database. Runs once; later calls wait for the first.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  let running: Promise<void> | null = null;

  const stopServing = async (): Promise<void> => {
    const server = strapi.server?.httpServer as (net.Server & { closeAllConnections?: () => void }) | undefined;
    if (!server?.listening) return;
    // net's close stops accepting without cutting idle keep-alive connections (http's close
    // would): a request a proxy is sending on one right now is still answered.
    const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
    const deadline = Date.now() + env().SHUTDOWN_GRACE_MS;
    while (Date.now() < deadline && (processState.inFlight > 0 || (await openConnections(server)) > 0)) await sleep(50);
    if (processState.inFlight > 0) strapi.log.warn(`[shutdown] ${processState.inFlight} request(s) still running after the grace period; cutting them`);
    server.closeAllConnections?.();
    await closed;
  };

  const run = async (): Promise<void> => {
    const started = Date.now();
    processState.shuttingDown = true;
    strapi.log.info('[shutdown] stopping: readiness is 503, no new connections');
    await stopServing();
    await getService(strapi, 'analytics')
      .drain()
      .catch((error: Error) => strapi.log.error(`[shutdown] writing queued events failed: ${error.message}`));
    await getService(strapi, 'mail-outbox')
      .drain()
      .catch((error: Error) => strapi.log.error(`[shutdown] the mail outbox pass failed: ${error.message}`));
    await strapi.destroy();
    // destroy() logs through a logger that is closing; stdout still works.
    process.stdout.write(`[shutdown] stopped cleanly in ${Date.now() - started} ms\n`);
  };

  return {
    /** True once a shutdown has begun. */
    get shuttingDown(): boolean {
      return processState.shuttingDown;
    },
    shutdown(): Promise<void> {
      running ??= run();
      return running;
    },
  };
};
