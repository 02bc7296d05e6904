import { countElements, funnelCreateSchema, funnelDocumentSchema, MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { notFound, validationError, type FieldErrors } from '../http/errors';
import { pageMeta, readListQuery } from '../http/paging';
import { routeId } from '../http/params';
import { created, ok, paged } from '../http/respond';
import { parse } from '../http/validate';
import type { UserRecord } from '../users/serialize';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { sendPlayerPayload } from './player-response';
import { presentFunnel, presentFunnelSummary } from './present';
import type { FunnelRow } from './service';

/** Funnels: the signed-in user's own; another tenant's is a 404. */
export default ({ strapi }: { strapi: Strapi }) => {
  const funnels = () => getService(strapi, 'funnels');
  const videos = () => getService(strapi, 'videos');
  const limits = () => getService(strapi, 'plan-limits');
  const player = () => getService(strapi, 'player-payload');

  const load = async (ctx: Context): Promise<FunnelRow> => {
    const funnel = await funnels().find(ctx.state.branchifyUser.id, routeId(ctx));
    if (!funnel) throw notFound();
    return funnel;
  };

  const full = async (funnel: FunnelRow) => {
    const rows = await videos().findMany(
      funnel.owner_id,
      (funnel.videos ?? []).map((v) => v.id),
    );
    return presentFunnel(funnel, new Map(rows.map((r) => [r.id, r])), await getService(strapi, 'analytics').lastViewState(funnel.id));
  };

  /** The plan's funnel limit, checked on the count taken inside the creating transaction. */
  const withinLimit = (user: UserRecord) => (count: number) => limits().assert(user, { kind: 'funnels', count });

  return {
    async index(ctx: Context) {
      const q = readListQuery(ctx.query, []);
      const { rows, total } = await funnels().list(ctx.state.branchifyUser.id, q);
      paged(ctx, rows.map(presentFunnelSummary), pageMeta(q, total));
    },

    async show(ctx: Context) {
      ok(ctx, await full(await load(ctx)));
    },

    async create(ctx: Context) {
      const user: UserRecord = ctx.state.branchifyUser;
      const input = parse(funnelCreateSchema, ctx.request.body);
      const funnel = await funnels().createCounted(user.id, input, withinLimit(user));
      strapi.log.info(`[funnels] user ${user.id} created funnel ${funnel.id}`);
      created(ctx, await full(funnel), MESSAGES.funnelSaved);
    },

    /**
     * The whole funnel (the editor's save) when `videos` is sent; otherwise only title,
     * description and settings (the update-funnel modal), leaving the videos as they are.
     */
    async update(ctx: Context) {
      const user: UserRecord = ctx.state.branchifyUser;
      const funnel = await load(ctx);
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      if (!('videos' in body)) {
        const updated = await funnels().updateMeta(funnel, parse(funnelCreateSchema, body));
        player().invalidate(funnel.identifier);
        return ok(ctx, await full(updated), MESSAGES.funnelUpdated);
      }
      const doc = parse(funnelDocumentSchema, body);
      const owned = new Set(
        (
          await videos().findMany(
            user.id,
            doc.videos.map((v) => v.id),
          )
        ).map((v) => v.id),
      );
      const errors: FieldErrors = {};
      doc.videos.forEach((v, i) => {
        if (!owned.has(v.id)) errors[`videos.${i}.id`] = [MESSAGES.videoNotInLibrary];
      });
      if (Object.keys(errors).length) throw validationError(errors);
      await limits().assert(user, { kind: 'elements', branches: countElements(doc.videos, 'branch'), texts: countElements(doc.videos, 'text') });
      const saved = await funnels().saveDocument(funnel, doc);
      player().invalidate(funnel.identifier);
      strapi.log.info(`[funnels] user ${user.id} saved funnel ${funnel.id} (version ${saved.version})`);
      ok(ctx, await full(saved), MESSAGES.funnelSaved);
    },

    async duplicate(ctx: Context) {
      const user: UserRecord = ctx.state.branchifyUser;
      const source = await load(ctx);
      const copy = await funnels().createCounted(
        user.id,
        {
          title: `${source.title} (copy)`.slice(0, 255),
          description: source.description ?? '',
          settings: { enable_resume_play: Boolean(source.settings?.enable_resume_play) },
          videos: source.videos ?? [],
        },
        withinLimit(user),
      );
      created(ctx, await full(copy), MESSAGES.funnelDuplicated);
    },

    async destroy(ctx: Context) {
      const funnel = await load(ctx);
      await funnels().remove(funnel);
      player().invalidate(funnel.identifier);
      strapi.log.info(`[funnels] user ${ctx.state.branchifyUser.id} deleted funnel ${funnel.id}`);
      ok(ctx, null, MESSAGES.funnelDeleted);
    },

    /** Public: the player payload (also answered by the player-payload middleware, before the router). */
    async player(ctx: Context) {
      await sendPlayerPayload(strapi, ctx, String(ctx.params.reference ?? ''));
    },
  };
};
