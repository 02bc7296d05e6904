import { funnelCreateSchema, funnelDocumentSchema, MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { notFound } from '../http/errors';
import { pageMeta, readListQuery } from '../http/paging';
import { routeId, routeParam } from '../http/params';
import { created, ok, paged } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { isDryRun, readImportBody } from './import-body';
import { sendPlayerPayload } from './player-response';
import { presentFunnel, presentFunnelSummary } from './present';
import type { FunnelRow } from '../content-types/funnel';
import { signedInUser } from '../http/request-state';

/** The download's name: the title in lower-case letters and digits (the header takes no other). */
const exportFileName = (title: string): string =>
  `${
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'funnel'
  }.funnel.json`;

/** Funnels: the signed-in user's own; another tenant's is a 404. */
export default ({ strapi }: { strapi: Strapi }) => {
  const funnels = () => getService(strapi, 'funnels');
  const videos = () => getService(strapi, 'videos');
  const editing = () => getService(strapi, 'funnel-editing');

  const load = async (ctx: Context): Promise<FunnelRow> => {
    const funnel = await funnels().find(signedInUser(ctx).id, routeId(ctx));
    if (!funnel) throw notFound();
    return funnel;
  };

  const full = async (funnel: FunnelRow) => {
    const rows = await videos().findMany(
      funnel.owner_id,
      (funnel.videos ?? []).map((v) => v.id),
    );
    const [lastView, captions] = await Promise.all([
      getService(strapi, 'analytics').lastViewState(funnel.id),
      getService(strapi, 'captions').byVideos(rows.map((r) => r.id)),
    ]);
    return presentFunnel(funnel, new Map(rows.map((r) => [r.id, r])), lastView, captions);
  };

  return {
    async index(ctx: Context) {
      const q = readListQuery(ctx.query, []);
      const { rows, total } = await funnels().list(signedInUser(ctx).id, q);
      paged(ctx, rows.map(presentFunnelSummary), pageMeta(q, total));
    },

    async show(ctx: Context) {
      ok(ctx, await full(await load(ctx)));
    },

    async create(ctx: Context) {
      const input = parse(funnelCreateSchema, ctx.request.body);
      created(ctx, await full(await editing().create(signedInUser(ctx), input)), MESSAGES.funnelSaved);
    },

    /**
     * The whole funnel (the editor's save) when `videos` is sent; otherwise only title,
     * description and settings (the update-funnel modal), leaving the videos as they are.
     */
    async update(ctx: Context) {
      const funnel = await load(ctx);
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      if (!('videos' in body)) {
        const updated = await editing().updateMeta(funnel, parse(funnelCreateSchema, body));
        return ok(ctx, await full(updated), MESSAGES.funnelUpdated);
      }
      const doc = parse(funnelDocumentSchema, body);
      ok(ctx, await full(await editing().save(signedInUser(ctx), funnel, doc)), MESSAGES.funnelSaved);
    },

    async duplicate(ctx: Context) {
      const source = await load(ctx);
      created(ctx, await full(await editing().duplicate(signedInUser(ctx), source)), MESSAGES.funnelDuplicated);
    },

    /** The funnel as one versioned JSON file, downloaded. */
    async exportFile(ctx: Context) {
      const funnel = await load(ctx);
      const file = await getService(strapi, 'funnel-transfer').exportFile(funnel);
      ctx.set('Content-Disposition', `attachment; filename="${exportFileName(funnel.title)}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(file, null, 2);
    },

    /** A new funnel from an export file; `?dry_run=true` answers only what it would make. */
    async importFile(ctx: Context) {
      const user = signedInUser(ctx);
      const { plan, funnel } = await getService(strapi, 'funnel-transfer').importFile(user, await readImportBody(ctx), { dryRun: isDryRun(ctx) });
      if (!funnel) return ok(ctx, { plan });
      created(ctx, { ...(await full(funnel)), plan }, MESSAGES.funnelImported);
    },

    async destroy(ctx: Context) {
      await editing().remove(await load(ctx), signedInUser(ctx).id);
      ok(ctx, null, MESSAGES.funnelDeleted);
    },

    /** Public: the player payload (also answered by the player-payload middleware, before the router). */
    async player(ctx: Context) {
      await sendPlayerPayload(strapi, ctx, routeParam(ctx, 'reference'));
    },
  };
};
