import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { filesIn } from '../customization/upload-store';
import { notFound, validationError } from '../http/errors';
import { pageMeta, readListQuery } from '../http/paging';
import { routeId } from '../http/params';
import { created, ok, paged } from '../http/respond';
import { parse } from '../http/validate';
import { IMAGE_FIELD } from '../uploads/service';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { presentVideo } from './present';
import { parseCreateVideo, updateVideoSchema } from './validators';
import { signedInUser } from '../http/request-state';
import type { VideoRow } from '../content-types/video';

/** The video library: the signed-in user's own videos only. */
export default ({ strapi }: { strapi: Strapi }) => {
  const videos = () => getService(strapi, 'videos');
  const funnels = () => getService(strapi, 'funnels');
  const library = () => getService(strapi, 'video-library');
  const load = async (ctx: Context) => {
    const video = await videos().find(signedInUser(ctx).id, routeId(ctx));
    if (!video) throw notFound();
    return video;
  };
  /** One video with its use and its caption tracks. */
  const presentOne = async (video: VideoRow) => {
    const [counts, captions] = await Promise.all([funnels().countsByVideo([video.id]), getService(strapi, 'captions').byVideos([video.id])]);
    return presentVideo(video, counts.get(video.id) ?? 0, captions.get(video.id));
  };

  return {
    async index(ctx: Context) {
      const q = readListQuery(ctx.query, []);
      const { rows, total } = await videos().list(signedInUser(ctx).id, q);
      const ids = rows.map((r) => r.id);
      const [counts, captions] = await Promise.all([funnels().countsByVideo(ids), getService(strapi, 'captions').byVideos(ids)]);
      paged(
        ctx,
        rows.map((r) => presentVideo(r, counts.get(r.id) ?? 0, captions.get(r.id))),
        pageMeta(q, total),
      );
    },

    async create(ctx: Context) {
      const input = parseCreateVideo(ctx.request.body);
      created(ctx, presentVideo(await library().add(signedInUser(ctx), input)), MESSAGES.videoAdded);
    },

    async update(ctx: Context) {
      const video = await load(ctx);
      const { title } = parse(updateVideoSchema, ctx.request.body);
      ok(ctx, await presentOne(await library().rename(video, title)), MESSAGES.videoUpdated);
    },

    /**
     * A poster frame for one of my videos: multipart with exactly one raster image (png, jpg or
     * webp; a frame is never a drawing) in `image`, within the branch image limit.
     */
    async poster(ctx: Context) {
      const video = await load(ctx);
      const files = filesIn(ctx, IMAGE_FIELD);
      if (files.length !== 1) throw validationError({ [IMAGE_FIELD]: [MESSAGES.branchImageRequired] });
      if (!/\.(png|jpe?g|webp)$/i.test(files[0]!.originalFilename ?? '')) throw validationError({ [IMAGE_FIELD]: [MESSAGES.invalidFileType] });
      ok(ctx, await presentOne(await library().setPoster(video, files[0]!)), MESSAGES.videoUpdated);
    },

    async destroy(ctx: Context) {
      await library().remove(await load(ctx), signedInUser(ctx).id);
      ok(ctx, null, MESSAGES.videoDeleted);
    },
  };
};
