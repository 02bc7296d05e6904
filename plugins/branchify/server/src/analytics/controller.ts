import type { Context } from 'koa';
import { routeId, routeParam } from '../http/params';
import { created, ok } from '../http/respond';
import { textStream } from '../http/text-stream';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { reportCsv } from './csv';
import { analyticsFilterSchema, interactionBatchSchema, interactionSchema, startViewSchema, updateViewSchema } from './validators';
import { signedInUser } from '../http/request-state';

/**
 * Views and interactions (public, by the funnel's reference, as the player sends them) and the
 * analytics report (the funnel's owner, or an admin).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const ingest = () => getService(strapi, 'analytics-ingest');
  const reporting = () => getService(strapi, 'analytics-reporting');
  const playable = (ctx: Context) => getService(strapi, 'player-payload').get(routeParam(ctx, 'reference'));
  /** The viewer's client address (as Koa resolves it under the proxy policy): what their webhook events are bounded by. */
  const viewer = (ctx: Context) => ({ address: ctx.ip });

  const updateView = async (ctx: Context, body: unknown) => {
    const entry = await playable(ctx);
    const input = parse(updateViewSchema, body);
    await ingest().updateView(entry, input, viewer(ctx));
    ok(ctx, { view_id: input.view_id });
  };

  const reportOf = (ctx: Context, input: unknown) => {
    const filter = parse(analyticsFilterSchema, input);
    return reporting().report(signedInUser(ctx), routeId(ctx), filter);
  };

  return {
    /**
     * Starts a view; answers once it is stored. A body with `view_id` is an update instead, for
     * `navigator.sendBeacon`, which can only POST (the last position on page hide).
     */
    async startView(ctx: Context) {
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      if (typeof body === 'object' && body && 'view_id' in body) return updateView(ctx, body);
      const entry = await playable(ctx);
      const input = parse(startViewSchema, body);
      created(ctx, await ingest().startView(entry, input, viewer(ctx)));
    },

    async updateView(ctx: Context) {
      return updateView(ctx, ctx.request.body);
    },

    async interactions(ctx: Context) {
      const entry = await playable(ctx);
      // One interaction (the spec's payload), or a batch of them.
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      const batched = typeof body === 'object' && 'events' in body;
      const events = batched ? parse(interactionBatchSchema, body).events : [parse(interactionSchema, body)];
      const accepted = await ingest().recordInteractions(entry, events, batched, viewer(ctx));
      ctx.status = 202;
      ctx.body = { success: true, data: { accepted } };
    },

    async report(ctx: Context) {
      ok(ctx, (await reportOf(ctx, ctx.request.body)).data);
    },

    /** The same figures as a CSV download (`?from=&to=`), streamed: every view of the range, read a page at a time. */
    async reportCsv(ctx: Context) {
      const { funnel, data, range } = await reportOf(ctx, ctx.query);
      const pages = reporting().viewPages(funnel, range);
      const body = await textStream(reportCsv(data, { variables: (funnel.variables ?? []).map((v) => v.name), pages }));
      const name = `funnel-${funnel.identifier}-analytics-${data.range.from}-to-${data.range.to}.csv`;
      ctx.set('Content-Type', 'text/csv; charset=utf-8');
      ctx.set('Content-Disposition', `attachment; filename="${name}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    },
  };
};
