import { funnelCreateSchema, MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { badRequest, notFound, serviceUnavailable, validationError } from '../http/errors';
import { takeExportSlot } from './export-slots';
import { laterJsonText } from '../middlewares/later-json';
import { nextTurn, offload } from '../offload/pool';
import { createSemaphore, SemaphoreFull } from '../utils/semaphore';
import { pageMeta, readListQuery } from '../http/paging';
import { routeId, routeParam } from '../http/params';
import { created, ok, paged } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { isDryRun, withImportFile } from './import-body';
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

/** Document saves this process writes at once; the others wait their turn (a full queue is a 503). */
const documentWrites = createSemaphore(1, 256);
const oneAtATime = <T>(work: () => Promise<T>): Promise<T> =>
  documentWrites.run(work).catch((error: unknown) => {
    throw error instanceof SemaphoreFull ? serviceUnavailable(MESSAGES.serviceUnavailable, 2) : error;
  });

/** Funnels: the signed-in user's own; another tenant's is a 404. */
export default ({ strapi }: { strapi: Strapi }) => {
  const funnels = () => getService(strapi, 'funnels');
  const editing = () => getService(strapi, 'funnel-editing');

  const load = async (ctx: Context): Promise<FunnelRow> => {
    const funnel = await funnels().find(signedInUser(ctx).id, routeId(ctx));
    if (!funnel) throw notFound();
    return funnel;
  };

  const full = async (funnel: FunnelRow) => {
    const ids = (funnel.videos ?? []).map((v) => v.id);
    const rows = await getService(strapi, 'videos').findMany(funnel.owner_id, ids);
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
      const read = await offload.funnelSave(laterJsonText(ctx) ?? '');
      if ('fault' in read) throw badRequest(read.fault === 'forbidden-key' ? MESSAGES.forbiddenBodyKey : MESSAGES.malformedBody);
      if ('errors' in read) throw validationError(read.errors);
      const funnel = await load(ctx);
      if (read.kind === 'meta') return ok(ctx, await full(await editing().updateMeta(funnel, read.value)), MESSAGES.funnelUpdated);
      // Whole documents are written one at a time, each step (write, present) in a turn of its own.
      const presented = await oneAtATime(async () => {
        await nextTurn();
        const saved = await editing().save(signedInUser(ctx), funnel, read.value);
        await nextTurn();
        return full(saved);
      });
      await nextTurn();
      ok(ctx, presented, MESSAGES.funnelSaved);
    },

    async duplicate(ctx: Context) {
      const source = await load(ctx);
      created(ctx, await full(await editing().duplicate(signedInUser(ctx), source)), MESSAGES.funnelDuplicated);
    },

    /** The funnel as one versioned JSON file, downloaded as it is written; one at a time per account. */
    async exportFile(ctx: Context) {
      const funnel = await load(ctx);
      const done = takeExportSlot(funnel.owner_id);
      const stream = await getService(strapi, 'funnel-transfer')
        .exportStream(funnel)
        .catch((error: unknown) => {
          done();
          throw error;
        });
      stream.once('close', done);
      ctx.set({ 'Content-Disposition': `attachment; filename="${exportFileName(funnel.title)}"`, 'Cache-Control': 'no-store' });
      ctx.type = 'application/json';
      ctx.body = stream;
    },

    /** A new funnel from an export file; `?dry_run=true` answers only what it would make. */
    async importFile(ctx: Context) {
      const user = signedInUser(ctx);
      const { plan, funnel } = await withImportFile(ctx, (read) => getService(strapi, 'funnel-transfer').importFile(user, read, { dryRun: isDryRun(ctx) }));
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
