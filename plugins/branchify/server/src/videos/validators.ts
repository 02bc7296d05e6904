import { createVideoSchema, type VideoInput } from '@branchify/shared';
import { parse } from '../http/validate';

/** The video rules live in @branchify/shared, so the web app's forms check the same input. */
export { updateVideoSchema, type VideoInput } from '@branchify/shared';

/** POST videos: the body checked, with what was typed parsed for its provider. */
export const parseCreateVideo = (body: unknown): VideoInput => parse(createVideoSchema, body);
