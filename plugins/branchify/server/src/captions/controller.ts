import fs from 'node:fs/promises';
import { CAPTION_FILE_FIELD, MESSAGES, captionFormat, captionProblemText, captionTrackSchema, parseCaptionFile } from '@branchify/shared';
import type { Context } from 'koa';
import { filesIn } from '../customization/upload-store';
import { notFound, validationError } from '../http/errors';
import { notModified } from '../http/content-coding';
import { routeId, routeParam } from '../http/params';
import { created, ok } from '../http/respond';
import { parse } from '../http/validate';
import { signedInUser } from '../http/request-state';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { presentCaptionTrack } from './present';

/** A multipart text field as one string (formidable may hand a list). */
const field = (body: unknown, name: string): unknown => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Caption tracks of the signed-in creator's library videos, and their files for viewers. */
export default ({ strapi }: { strapi: Strapi }) => {
  const captions = () => getService(strapi, 'captions');
  const loadVideo = async (ctx: Context) => {
    const video = await getService(strapi, 'videos').find(signedInUser(ctx).id, routeId(ctx));
    if (!video) throw notFound();
    return video;
  };

  return {
    async index(ctx: Context) {
      const video = await loadVideo(ctx);
      ok(ctx, ((await captions().byVideos([video.id])).get(video.id) ?? []).map(presentCaptionTrack));
    },

    /**
     * Multipart: `language`, `label` and one `.vtt` or `.srt` file (SRT is converted). The file is
     * checked as text; a refusal names the line that fails.
     */
    async create(ctx: Context) {
      const video = await loadVideo(ctx);
      const input = parse(captionTrackSchema, { language: field(ctx.request.body, 'language'), label: field(ctx.request.body, 'label') });
      const files = filesIn(ctx, CAPTION_FILE_FIELD);
      if (files.length !== 1) throw validationError({ [CAPTION_FILE_FIELD]: [MESSAGES.captionFileRequired] });
      const format = captionFormat(files[0]!.originalFilename);
      if (!format) throw validationError({ [CAPTION_FILE_FIELD]: [MESSAGES.captionFileType] });
      const parsed = parseCaptionFile(await fs.readFile(files[0]!.filepath), format);
      if (!parsed.ok) throw validationError({ [CAPTION_FILE_FIELD]: [captionProblemText(parsed.problem)] });
      const track = await captions().add(video, input, { vtt: parsed.vtt, cues: parsed.cues.length });
      strapi.log.info(`[captions] user ${video.owner_id} added a ${track.language} track to video ${video.id} (${track.cues} cues)`);
      created(ctx, presentCaptionTrack(track), MESSAGES.captionTrackAdded);
    },

    async destroy(ctx: Context) {
      const video = await loadVideo(ctx);
      const track = await captions().find(video.owner_id, video.id, routeId(ctx, 'trackId'));
      if (!track) throw notFound();
      await captions().remove(track.id);
      ok(ctx, null, MESSAGES.captionTrackDeleted);
    },

    /**
     * Public: a track's WebVTT file by its unguessable key (viewers get it in the player payload).
     * Never changes under its key, so a revalidation is a 304; served as text, never sniffed.
     */
    async file(ctx: Context) {
      const key = routeParam(ctx, 'key');
      if (!/^[A-Za-z0-9_-]{32}$/.test(key)) throw notFound();
      const track = await captions().fileByKey(key);
      if (!track) throw notFound();
      const etag = `"${track.key}"`;
      ctx.set('ETag', etag);
      ctx.set('Cache-Control', 'public, max-age=300, stale-while-revalidate=3600');
      ctx.set('X-Content-Type-Options', 'nosniff');
      if (notModified(ctx, etag)) {
        ctx.status = 304;
        return;
      }
      ctx.type = 'text/vtt; charset=utf-8';
      ctx.body = track.content;
    },
  };
};
