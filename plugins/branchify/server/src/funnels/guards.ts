import type { Context } from 'koa';
import { notFound } from '../http/errors';
import type { Next } from '../http/next';
import { routeId } from '../http/params';
import { signedInUser } from '../http/request-state';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';

/**
 * Checks made from the account and the path before a funnel route reads its body: the body of a
 * request that would be refused anyway is never read or parsed.
 */

/** The funnel in the path is the caller's own (404 otherwise). */
export const ownFunnelGuard =
  (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    const own = await query(strapi, UID.funnel).findOne({ where: { id: routeId(ctx), owner_id: signedInUser(ctx).id }, select: ['id'] });
    if (!own) throw notFound();
    return next();
  };

/** The caller's plan allows one more funnel (403 with the plan's message otherwise). */
export const importGuard =
  (_config: unknown, { strapi }: { strapi: Strapi }) =>
  async (ctx: Context, next: Next) => {
    const user = signedInUser(ctx);
    const count = await getService(strapi, 'funnels').count(user.id);
    await getService(strapi, 'plan-limits').assert(user, { kind: 'funnels', count: count + 1 });
    return next();
  };
