import { ID_MAX, LOGIC_LIMITS, MESSAGES, REPORTED_TARGET_MAX } from '@branchify/shared';
import { z } from 'zod';
import { INTERACTION_TYPES } from '../content-types/funnel-interaction';
import { VIEW_TOKEN_PATTERN } from './view-token';

const uuid = (name: string) =>
  z
    .string({ message: `The ${name} must be a UUID.` })
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: `The ${name} must be a UUID.` })
    .transform((v) => v.toLowerCase());
const token = z.string({ message: 'The viewer token is invalid.' }).regex(/^[A-Za-z0-9_-]{16,64}$/, { message: 'The viewer token is invalid.' });
/** The view token `POST …/views` handed out with the view (checked against its signature by ingest). */
const viewToken = z.string({ message: MESSAGES.viewTokenInvalid }).regex(VIEW_TOKEN_PATTERN, { message: MESSAGES.viewTokenInvalid });
const seconds = (name: string) =>
  z
    .number({ message: `The ${name} must be a number of seconds.` })
    .min(0, { message: `The ${name} must be a number of seconds.` })
    .max(864_000, { message: `The ${name} is too large.` });
const ref = (name: string) =>
  z
    .string({ message: `The ${name} is required.` })
    .trim()
    .min(1, { message: `The ${name} is required.` })
    .max(ID_MAX, { message: `The ${name} is too long.` });

/** The viewer's variables as the player reports them; ingest keeps only the funnel's declared ones, typed. */
const variables = z
  .record(
    z.string().max(LOGIC_LIMITS.nameMax, { message: 'The variable name is too long.' }),
    z.union([z.string().max(LOGIC_LIMITS.textMax), z.number().finite(), z.boolean()], { message: 'A variable must be text, a number or yes/no.' }),
    { message: 'The variables must be an object.' },
  )
  .refine((v) => Object.keys(v).length <= LOGIC_LIMITS.maxVariables, { message: `At most ${LOGIC_LIMITS.maxVariables} variables.` })
  .optional();

/** POST funnels/{reference}/views: a new view; a returning viewer sends the token it was given. */
export const startViewSchema = z.object({
  event_id: uuid('event id'),
  viewer_token: token.optional(),
});

/** PUT funnels/{reference}/views: where the viewer is now (what resume uses). */
export const updateViewSchema = z.object({
  view_id: uuid('view id'),
  view_token: viewToken,
  viewer_token: token,
  editor_id: ref('editor id'),
  last_watch_time: seconds('last watch time'),
  watch_time: seconds('watch time').optional(),
  duration: seconds('duration').nullish(),
  variables,
});

/** The interaction payload, plus the client's event id and the view it happened in (with its token). */
export const interactionSchema = z.object({
  event_id: uuid('event id'),
  view_id: uuid('view id'),
  view_token: viewToken,
  video_id: ref('video id'),
  node_id: ref('node id'),
  /** What the branch leads to, as the player reports it (checked against the funnel by ingest). */
  connected_node: z.string().trim().max(REPORTED_TARGET_MAX).nullish(),
  /** 'branch': the viewer clicked the button; 'inaction': the element's inaction default took it. */
  type: z.enum(INTERACTION_TYPES, { message: "The type must be 'branch' or 'inaction'." }).default('branch'),
  player_time: seconds('player time').default(0),
  /** An inaction: whether the viewer had paused the countdown before it ran out. */
  countdown_paused: z.boolean({ message: 'countdown_paused must be true or false.' }).optional(),
  /** The variables after the event. */
  variables,
});

export const MAX_EVENTS_PER_REQUEST = 100;

/** A batch `{ events: [...] }`: the player sends what it has gathered. */
export const interactionBatchSchema = z.object({
  events: z
    .array(interactionSchema)
    .min(1, { message: 'Send at least one event.' })
    .max(MAX_EVENTS_PER_REQUEST, { message: `Send at most ${MAX_EVENTS_PER_REQUEST} events at once.` }),
});

/** POST funnels/{id}/analytics and GET funnels/{id}/analytics.csv: the shared filter. */
export { analyticsFilterSchema } from '@branchify/shared';
