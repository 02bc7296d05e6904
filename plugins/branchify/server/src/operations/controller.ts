import type { Context } from 'koa';
import { ok } from '../http/respond';
import { processLoad } from './load';
import { collectUnusedImages } from '../uploads/collect';
import type { Strapi } from '../utils/strapi';

/** What this app process is doing: event-loop delay, memory and worker threads (admins only). */
export default ({ strapi }: { strapi: Strapi }) => ({
  show(ctx: Context) {
    ctx.set('Cache-Control', 'no-store');
    ok(ctx, processLoad.read());
  },

  /** Deletes the unused images now (the server also sweeps every few minutes): one sweep, and what it deleted. */
  async collectImages(ctx: Context) {
    ok(ctx, await collectUnusedImages(strapi));
  },

  /** Starts a new measuring period (the figures then cover what happens from now on). */
  reset(ctx: Context) {
    processLoad.reset();
    ok(ctx, processLoad.read());
  },
});
