import { MESSAGES, messageTemplates } from '@branchify/shared';
import type { Context } from 'koa';
import { AppError, notFound } from '../http/errors';
import { pageMeta, readListQuery } from '../http/paging';
import { routeId } from '../http/params';
import { created, ok, paged } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { presentVideo } from './present';
import { parseCreateVideo, updateVideoSchema } from './validators';

/** The video library: the signed-in user's own videos only. */
export default ({ strapi }: { strapi: Strapi }) => {
  const videos = () => getService(strapi, 'videos');
  const funnels = () => getService(strapi, 'funnels');
  const load = async (ctx: Context) => {
    const video = await videos().find(ctx.state.branchifyUser.id, routeId(ctx));
    if (!video) throw notFound();
    return video;
  };

  return {
    async index(ctx: Context) {
      const q = readListQuery(ctx.query, []);
      const { rows, total } = await videos().list(ctx.state.branchifyUser.id, q);
      const counts = await funnels().countsByVideo(rows.map((r) => r.id));
      paged(
        ctx,
        rows.map((r) => presentVideo(r, counts.get(r.id) ?? 0)),
        pageMeta(q, total),
      );
    },

    async create(ctx: Context) {
      const user = ctx.state.branchifyUser;
      const input = parseCreateVideo(ctx.request.body);
      await getService(strapi, 'plan-limits').assert(user, { kind: 'video_source', provider: input.source.provider });
      const video = await videos().create(user.id, input);
      strapi.log.info(`[videos] user ${user.id} added ${video.provider} video ${video.id}`);
      created(ctx, presentVideo(video), MESSAGES.videoAdded);
    },

    async update(ctx: Context) {
      const video = await load(ctx);
      const { title } = parse(updateVideoSchema, ctx.request.body);
      const updated = await videos().rename(video.id, title);
      getService(strapi, 'player-payload').invalidateAll();
      const counts = await funnels().countsByVideo([video.id]);
      ok(ctx, presentVideo(updated, counts.get(video.id) ?? 0), MESSAGES.videoUpdated);
    },

    /** A video a funnel uses is refused (409) with the funnels' names, so no funnel points at nothing. */
    async destroy(ctx: Context) {
      const video = await load(ctx);
      const usedBy = await funnels().titlesUsing(video.id);
      if (usedBy.length) throw new AppError(409, messageTemplates.videoInUseBy(usedBy));
      await videos().remove(video.id);
      strapi.log.info(`[videos] user ${ctx.state.branchifyUser.id} deleted video ${video.id}`);
      ok(ctx, null, MESSAGES.videoDeleted);
    },
  };
};
