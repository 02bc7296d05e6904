import { fieldMessages, parseVideoSource, VIDEO_PROVIDERS, type ParsedVideoSource } from '@branchify/config';
import { z } from 'zod';
import { validationError } from '../http/errors';
import { requiredString } from '../http/fields';
import { parse } from '../http/validate';

const optionalHttpUrl = z
  .string({ message: fieldMessages.string('thumbnail') })
  .trim()
  .max(2048, { message: fieldMessages.max('thumbnail', 2048) })
  .refine((v) => v === '' || /^https?:\/\//i.test(v), { message: 'The thumbnail must be an http(s) URL.' })
  .nullish()
  .transform((v) => v || null);

/**
 * POST videos: the provider and what the user typed (`url`, or `video_id`), plus the metadata the
 * client's player read (title, thumbnail, duration), all optional.
 */
const createVideoSchema = z.object({
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
  duration: z.number({ message: 'The duration must be a number of seconds.' }).min(0).max(864_000).nullish().transform((v) => v ?? null),
});

export interface VideoInput {
  source: ParsedVideoSource;
  title: string | null;
  thumbnail: string | null;
  duration: number | null;
}

export const parseCreateVideo = (body: unknown): VideoInput => {
  const input = parse(createVideoSchema, body);
  const typed = input.url ?? input.video_id;
  const parsed = parseVideoSource(input.provider, typed);
  if (!parsed.ok) throw validationError({ [input.url !== undefined || input.video_id === undefined ? 'url' : 'video_id']: [parsed.message] });
  return { source: parsed.value, title: input.title, thumbnail: input.thumbnail, duration: input.duration };
};

export const updateVideoSchema = z.object({ title: requiredString('title') });
