import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { requestPath } from '../http/request-path';
import { failureBody } from '../http/respond';
import { databaseAnswers } from '../operations/database';
import { processState } from '../operations/state';
import type { Strapi } from '../utils/strapi';

const READY_TIMEOUT_MS = 2000;

/**
 * Liveness (`GET /_live`: the process answers) and readiness (`GET /_ready`: the database answers
 * `select 1` and the process is not shutting down; 503 with the /api envelope otherwise). Comes
 * first in the chain, so it also counts every request in flight for the graceful shutdown and,
 * while shutting down, asks each client to close its connection after the answer.
 */
export default (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    processState.inFlight += 1;
    try {
      if (processState.shuttingDown) ctx.set('Connection', 'close');
      if (ctx.method === 'GET' || ctx.method === 'HEAD') {
        const { key, emptySegment } = requestPath(ctx);
        if (key === '/_live' && !emptySegment) {
          ctx.set('Cache-Control', 'no-store');
          ctx.body = { success: true, data: { status: 'live' } };
          return;
        }
        if (key === '/_ready' && !emptySegment) {
          ctx.set('Cache-Control', 'no-store');
          const ready = !processState.shuttingDown && (await databaseAnswers(strapi, READY_TIMEOUT_MS));
          ctx.status = ready ? 200 : 503;
          ctx.body = ready ? { success: true, data: { status: 'ready' } } : failureBody(MESSAGES.serviceUnavailable);
          return;
        }
      }
      await next();
      // A request that began before the shutdown still ends its connection.
      if (processState.shuttingDown) ctx.set('Connection', 'close');
    } finally {
      processState.inFlight -= 1;
    }
  };
