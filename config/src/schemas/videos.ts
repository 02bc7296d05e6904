import { fieldMessages, MESSAGES } from '../messages';
import { CAPTION_LIMITS, canonicalLanguage, type CaptionTrackResource } from '../content/captions';
import { parseVideoSource, VIDEO_PROVIDERS, type VideoProvider } from '../content/video-sources';
import { requiredString } from './fields';
import { z } from 'zod';

const optionalHttpUrl = z
  .string({ message: fieldMessages.string('thumbnail') })
  .trim()
  .max(2048, { message: fieldMessages.max('thumbnail', 2048) })
  .refine((v) => v === '' || /^https?:\/\//i.test(v), { message: 'The thumbnail must be an http(s) URL.' })
  .nullish()
  .transform((v) => v || null);

/**
 * POST videos: the provider and what the user typed (`url`, or `video_id`), plus the metadata the
 * client's player read (title, thumbnail, duration), all optional. What was typed must parse for
 * the provider; the output carries the parsed source.
 */
export const createVideoSchema = z
  .object({
    provider: z.enum(VIDEO_PROVIDERS, { message: fieldMessages.in('provider') }),
    url: z.string({ message: fieldMessages.string('url') }).optional(),
    video_id: z.string({ message: fieldMessages.string('video id') }).optional(),
    title: z
      .string({ message: fieldMessages.string('title') })
      .trim()
      .max(255, { message: fieldMessages.max('title', 255) })
      .nullish()
      .transform((v) => v || null),
    thumbnail: optionalHttpUrl,
    duration: z
      .number({ message: 'The duration must be a number of seconds.' })
      .min(0)
      .max(864_000)
      .nullish()
      .transform((v) => v ?? null),
  })
  .transform((input, ctx) => {
    const parsed = parseVideoSource(input.provider, input.url ?? input.video_id);
    if (!parsed.ok) {
      // The error goes under what was typed: `url`, or `video_id` when only that was sent.
      ctx.addIssue({ code: 'custom', path: [input.url !== undefined || input.video_id === undefined ? 'url' : 'video_id'], message: parsed.message });
      return z.NEVER;
    }
    return { source: parsed.value, title: input.title, thumbnail: input.thumbnail, duration: input.duration };
  });

/** What a valid POST videos body becomes: the parsed source and the optional metadata. */
export type VideoInput = z.output<typeof createVideoSchema>;

/** PUT videos/{id}: only the title changes. */
export const updateVideoSchema = z.object({ title: requiredString('title') });

/** The create-video modal in edit mode: provider and URL are shown locked; only the title is checked. */
export const editVideoFormSchema = updateVideoSchema.extend({ provider: z.enum(VIDEO_PROVIDERS), url: z.string().optional() });

/** A library video as the API shows it. */
export interface VideoResource {
  id: number;
  title: string;
  size: number;
  thumbnail: string | null;
  duration: number | null;
  provider: VideoProvider;
  external_id: string | null;
  embed_url: string | null;
  source: string | null;
  source_url: string | null;
  total_funnels: number;
  /** Its caption tracks (the API always sends them; older fixtures may leave them out). */
  captions?: CaptionTrackResource[];
  created_at: string | null;
  updated_at: string | null;
}

/**
 * POST videos/{id}/captions (multipart fields beside the file): a BCP-47 language code, stored in
 * its canonical case, and the label viewers pick it by.
 */
export const captionTrackSchema = z.object({
  language: z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? fieldMessages.required('language') : fieldMessages.string('language')) })
    .trim()
    .min(1, { message: fieldMessages.required('language') })
    .transform((value, ctx) => {
      const tag = canonicalLanguage(value);
      if (!tag) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.captionLanguageInvalid });
        return z.NEVER;
      }
      return tag;
    }),
  label: requiredString('label', CAPTION_LIMITS.maxLabelLength),
});

export type CaptionTrackInput = z.output<typeof captionTrackSchema>;
