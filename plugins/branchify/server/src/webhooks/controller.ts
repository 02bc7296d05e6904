import { MESSAGES, webhookEndpointSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { pageMeta, readListQuery } from '../http/paging';
import { routeId } from '../http/params';
import { created, ok, paged } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { signedInUser } from '../http/request-state';

/** Outgoing webhook endpoints and their delivery log, admin only. */
export default ({ strapi }: { strapi: Strapi }) => {
  const webhooks = () => getService(strapi, 'webhooks');

  return {
    async index(ctx: Context) {
      const q = readListQuery(ctx.query, [], { perPage: 25 });
      const { rows, total } = await webhooks().list(q);
      paged(ctx, rows, pageMeta(q, total), 'webhooks');
    },

    async show(ctx: Context) {
      ok(ctx, await webhooks().find(routeId(ctx)));
    },

    async create(ctx: Context) {
      const endpoint = await webhooks().create(parse(webhookEndpointSchema, ctx.request.body), signedInUser(ctx).id);
      strapi.log.info(`[webhooks] admin ${signedInUser(ctx).id} registered endpoint ${endpoint.id} (${endpoint.events.join(', ')})`);
      created(ctx, endpoint, MESSAGES.webhookCreated);
    },

    async update(ctx: Context) {
      const endpoint = await webhooks().update(routeId(ctx), parse(webhookEndpointSchema, ctx.request.body));
      strapi.log.info(`[webhooks] admin ${signedInUser(ctx).id} updated endpoint ${endpoint.id}`);
      ok(ctx, endpoint, MESSAGES.webhookUpdated);
    },

    async destroy(ctx: Context) {
      const id = routeId(ctx);
      await webhooks().remove(id);
      strapi.log.info(`[webhooks] admin ${signedInUser(ctx).id} deleted endpoint ${id}`);
      ok(ctx, null, MESSAGES.webhookDeleted);
    },

    async deliveries(ctx: Context) {
      const q = readListQuery(ctx.query, [], { perPage: 20 });
      const { rows, total } = await webhooks().deliveries(routeId(ctx), q);
      paged(ctx, rows, pageMeta(q, total), 'deliveries');
    },

    async resend(ctx: Context) {
      const delivery = await webhooks().resend(routeId(ctx));
      strapi.log.info(`[webhooks] admin ${signedInUser(ctx).id} resent delivery ${delivery.id}`);
      ok(ctx, delivery, MESSAGES.webhookResent);
    },

    async test(ctx: Context) {
      created(ctx, await webhooks().sendTest(routeId(ctx)), MESSAGES.webhookTestQueued);
    },
  };
};
