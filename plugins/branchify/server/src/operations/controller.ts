import type { Context } from 'koa';
import { ok } from '../http/respond';
import { processLoad } from './load';

/** What this app process is doing: event-loop delay, memory and worker threads (admins only). */
export default () => ({
  show(ctx: Context) {
    ctx.set('Cache-Control', 'no-store');
    ok(ctx, processLoad.read());
  },

  /** Starts a new measuring period (the figures then cover what happens from now on). */
  reset(ctx: Context) {
    processLoad.reset();
    ok(ctx, processLoad.read());
  },
});
