import { z } from 'zod';
import { MESSAGES } from '../messages';
import {
  ANIMATIONS,
  BACKGROUND_TYPES,
  BRANCH_LAYOUTS,
  CLICK_ACTION_VALUES,
  CONTENT_LIMITS,
  CORNER_STYLE_VALUES,
  DEFAULT_INACTION,
  FONT_SIZES,
  FONT_THICKNESSES,
  GRADIENT_DIRECTIONS,
  SHAPES,
} from './options';
import { DEFAULT_FONT_FAMILY, FONT_FAMILIES } from './fonts';
import { httpUrl } from './video-sources';
import { ID_MAX, ROW_ID_MAX, URL_MAX } from './lengths';
import {
  LOGIC_LIMITS,
  RESERVED_WORDS,
  VARIABLE_NAME,
  checkAssignment,
  checkCondition,
  describeLogicError,
  parseAssignment,
  parseCondition,
  type Parsed,
} from './logic';

/**
 * The funnel document, field by field: a funnel's videos, each with its timed
 * text and branch elements. The server validates every save against it and the editor uses it
 * to build and check what it sends, so both agree on what a funnel is. Unknown keys are dropped;
 * unknown element types, out-of-range numbers and unsafe URLs are rejected.
 */

const COLOR = /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d+)\s*)?\)|transparent)$/i;

const text = (max: number) => z.string({ message: 'must be text' }).max(max, { message: `must be at most ${max} characters` });
const color = (fallback = '#ffffff') =>
  z.string({ message: 'must be a colour' }).trim().regex(COLOR, { message: 'must be a colour such as #ffffff' }).default(fallback);
const num = (min: number, max: number) =>
  z
    .number({ message: 'must be a number' })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` });
const int = (min: number, max: number) => num(min, max).int({ message: 'must be a whole number' });
const bool = (fallback: boolean) => z.boolean({ message: 'must be true or false' }).default(fallback);
const oneOf = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.enum(values, { message: `must be one of: ${values.join(', ')}` }).default(fallback);
const fontSize = (fallback: (typeof FONT_SIZES)[number]) =>
  z
    .number({ message: 'must be a number' })
    .refine((v) => (FONT_SIZES as readonly number[]).includes(v), { message: `must be one of: ${FONT_SIZES.join(', ')}` })
    .default(fallback);
/** Only catalogue families: the player serves their files from our own origin. */
const fontFamily = () => oneOf(FONT_FAMILIES, DEFAULT_FONT_FAMILY);
const id = text(ID_MAX)
  .regex(/^[A-Za-z0-9_.:-]+$/, { message: 'must be letters, digits, - _ . or :' })
  .min(1, { message: 'is required' });

/** Texts parsed so far, at most this many kept: each text is parsed once per check of a document. */
const PARSED_KEPT = 4096;
const once = <T>(parse: (src: string) => Parsed<T>): ((src: string) => Parsed<T>) => {
  const kept = new Map<string, Parsed<T>>();
  return (src) => {
    let parsed = kept.get(src);
    if (!parsed) {
      if (kept.size >= PARSED_KEPT) kept.clear();
      parsed = parse(src);
      kept.set(src, parsed);
    }
    return parsed;
  };
};
const conditionOf = once(parseCondition);
const assignmentOf = once(parseAssignment);

/** A syntax error named where it is; the document's check adds unknown names and mixed types. */
const logicText = (max: number, what: string, parse: (src: string) => Parsed<unknown>) =>
  text(max).superRefine((src, ctx) => {
    if (src.trim() === '') return;
    const parsed = parse(src);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `${what} "${src}" ${describeLogicError(parsed.error)}` });
  });
/** When an element, a branch or an inaction path applies (`score >= 2`); empty: always. */
const condition = logicText(LOGIC_LIMITS.conditionMax, 'Condition', conditionOf).default('');
/** What a branch click does to the variables (`score + 1`, `name = "x"`). */
const assignments = z
  .array(logicText(LOGIC_LIMITS.assignmentMax, 'Assignment', assignmentOf), { message: 'must be a list' })
  .max(LOGIC_LIMITS.maxAssignments, { message: `at most ${LOGIC_LIMITS.maxAssignments} assignments` })
  .default([]);

const variableName = z
  .string({ message: 'must be text' })
  .min(1, { message: 'is required' })
  .max(LOGIC_LIMITS.nameMax, { message: `must be at most ${LOGIC_LIMITS.nameMax} characters` })
  .regex(VARIABLE_NAME, { message: 'must start with a letter or _ and hold only letters, digits and _' })
  .refine((v) => !(RESERVED_WORDS as readonly string[]).includes(v.toLowerCase()), { message: `must not be one of: ${RESERVED_WORDS.join(', ')}` });
const variableBase = { name: variableName, fromUrl: bool(false) };

/** A funnel variable: text, number or yes/no, with its starting value. */
export const variableSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ ...variableBase, type: z.literal('text'), default: text(LOGIC_LIMITS.textMax).default('') }),
    z.object({ ...variableBase, type: z.literal('number'), default: num(-LOGIC_LIMITS.numberMax, LOGIC_LIMITS.numberMax).default(0) }),
    z.object({ ...variableBase, type: z.literal('yesno'), default: bool(false) }),
  ],
  { error: () => ({ message: "must be 'text', 'number' or 'yesno'" }) },
);

/** UTF-8 bytes: what an index entry holds. */
const utf8Length = (v: string) => new TextEncoder().encode(v).length;

/**
 * http(s) only: never javascript:, data: or a relative path that could be anything. At most
 * URL_MAX bytes, so a branch link fits the analytics counters' keys, which are indexed.
 */
export const safeUrl = z
  .string({ message: MESSAGES.invalidUrl })
  .trim()
  .max(URL_MAX, { message: MESSAGES.invalidUrl })
  .refine((v) => utf8Length(v) <= URL_MAX && httpUrl(v) !== null, { message: MESSAGES.invalidUrl });

/** An image is one of our own uploads (/uploads/…) or an https URL. */
export const imageSource = z
  .string({ message: 'must be an image URL' })
  .trim()
  .max(URL_MAX)
  .refine((v) => (/^\/uploads\/[A-Za-z0-9._/-]+$/.test(v) && !v.includes('..')) || httpUrl(v)?.protocol === 'https:', {
    message: 'must be an uploaded image or an https:// URL',
  });

const position = z.object({ top: num(-10_000, 10_000).default(0), left: num(-10_000, 10_000).default(0) }).prefault({});
const padding = z
  .object({ top: int(0, 200).default(0), right: int(0, 200).default(16), bottom: int(0, 200).default(0), left: int(0, 200).default(16) })
  .prefault({});
const background = z.object({ enabled: bool(false), color: color('#000000'), edge: oneOf(CORNER_STYLE_VALUES, 'square'), padding }).prefault({});

export const showSkipSchema = z
  .object({
    show: bool(false),
    text: text(60).default('Skip'),
    fontSize: fontSize(1),
    color: color('#ffffff'),
    background: z.object({ color: color('#000000'), edge: oneOf(CORNER_STYLE_VALUES, 'rounded'), padding }).prefault({}),
    position: position.optional(),
  })
  .prefault({});

export const promptSchema = z
  .object({
    text: text(500).default(''),
    fontFamily: fontFamily(),
    fontThickness: oneOf(FONT_THICKNESSES as [string, ...string[]], 'regular'),
    color: color('#ffffff'),
    fontSize: fontSize(2),
    position,
    background,
  })
  .prefault({});

export const overlaySchema = z
  .object({
    enabled: bool(false),
    type: oneOf(BACKGROUND_TYPES, 'color'),
    color: z.object({ value: color('#000000'), opacity: num(0, 1).default(1) }).prefault({}),
    image: z.object({ source: imageSource.nullable().default(null), opacity: num(0, 1).default(1) }).prefault({}),
  })
  .prefault({});

export const branchSchema = z.object({
  id,
  name: text(100).default('Branch'),
  type: oneOf(BRANCH_LAYOUTS, 'standard'),
  onclick: oneOf(CLICK_ACTION_VALUES, 'branch'),
  externalLink: z
    .union([safeUrl, z.literal('')])
    .nullable()
    .default(null),
  timestamp: z.object({ hours: int(0, 99).default(0), minutes: int(0, 59).default(0), seconds: int(0, 59).default(0) }).prefault({}),
  /** The editor_id of the target video (onclick 'branch'). */
  video: id.nullable().default(null),
  /** Shown only while this holds (empty: always). */
  when: condition,
  /** Applied to the variables when the viewer clicks it. */
  set: assignments,
  standard: z
    .object({
      text: text(200).default(''),
      fontSize: fontSize(1.5),
      font: fontFamily(),
      fontThickness: oneOf(FONT_THICKNESSES as [string, ...string[]], 'regular'),
      color: color('#ffffff'),
      shape: oneOf(SHAPES, 'rectangle'),
      position,
      background: z
        .object({
          enabled: bool(true),
          style: oneOf(BACKGROUND_TYPES, 'color'),
          color: color('#2f27ce'),
          image: imageSource.nullable().default(null),
          edge: oneOf(CORNER_STYLE_VALUES, 'rounded'),
          padding,
        })
        .prefault({}),
    })
    .prefault({}),
  image: z
    .object({ width: int(10, 4000).default(100), height: int(10, 4000).default(100), position, source: imageSource.nullable().default(null) })
    .prefault({}),
});

export const branchSettingsSchema = z
  .object({
    externalLink: bool(true),
    showSkip: showSkipSchema,
    /** 'skip-and-continue', an http(s) URL, or the id of one of the element's branches. */
    inaction: text(URL_MAX).default(DEFAULT_INACTION),
    /** The inaction path is taken only while this holds (else the video carries on). */
    inactionWhen: condition,
    pauseVideo: z
      .object({
        enabled: bool(false),
        duration: int(CONTENT_LIMITS.pauseMinSeconds, 86_400).default(CONTENT_LIMITS.pauseMinSeconds),
        /** The time left is shown while the video waits (the pause and More time controls are always offered). */
        showCountdown: bool(true),
      })
      .prefault({}),
    animation: oneOf(ANIMATIONS, 'none'),
    gradient: z.object({ enabled: bool(false), color: color('#000000'), direction: oneOf(GRADIENT_DIRECTIONS, 'to bottom') }).prefault({}),
    equalize: bool(false),
    border: z.object({ enabled: bool(false), color: color('#ffffff'), size: int(CONTENT_LIMITS.borderMin, CONTENT_LIMITS.borderMax).default(1) }).prefault({}),
  })
  .prefault({});

export const textDataSchema = z.object({
  name: z.literal('text').default('text'),
  title: text(2000).default(''),
  fontSize: fontSize(2),
  fontFamily: fontFamily(),
  fontThickness: oneOf(FONT_THICKNESSES as [string, ...string[]], 'regular'),
  color: color('#ffffff'),
  position: position.optional(),
  settings: z.object({ showSkip: showSkipSchema }).prefault({}),
});

export const branchDataSchema = z.object({
  name: z.literal('branch').default('branch'),
  branches: z
    .array(branchSchema)
    .max(CONTENT_LIMITS.maxBranchesPerElement, { message: `at most ${CONTENT_LIMITS.maxBranchesPerElement} branches` })
    .default([]),
  settings: branchSettingsSchema,
  prompt: promptSchema,
  overlay: overlaySchema,
});

const elementBase = {
  id,
  position,
  player: z.object({ width: num(0, 10_000).default(0), height: num(0, 10_000).default(0) }).prefault({}),
  showAt: num(0, 86_400).default(0),
  hideAt: num(0, 86_400).default(0),
  active: bool(true),
  skip: bool(false),
  belongsTo: id.optional(),
  width: num(0, 10_000).nullable().default(null),
  /** Shown only while this holds (empty: always). */
  when: condition,
};

export const elementSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ ...elementBase, type: z.literal('text'), data: textDataSchema.prefault({}) }),
    z.object({ ...elementBase, type: z.literal('branch'), data: branchDataSchema.prefault({}) }),
  ],
  { error: () => ({ message: "must be 'text' or 'branch'" }) },
);

/** A map coordinate, bounded so a stored layout stays drawable. */
const mapCoordinate = z
  .number({ message: 'must be a number' })
  .finite({ message: 'must be a number' })
  .min(-CONTENT_LIMITS.mapCoordinateMax, { message: `must be at least -${CONTENT_LIMITS.mapCoordinateMax}` })
  .max(CONTENT_LIMITS.mapCoordinateMax, { message: `must be at most ${CONTENT_LIMITS.mapCoordinateMax}` });
const mapPositionSchema = z.object({ x: mapCoordinate, y: mapCoordinate });

export const funnelVideoSchema = z.object({
  /** The library video's id. */
  id: z
    .number({ message: 'must be a video id' })
    .int({ message: 'must be a video id' })
    .positive({ message: 'must be a video id' })
    .max(ROW_ID_MAX, { message: 'must be a video id' }),
  editor_id: id,
  elements: z
    .array(elementSchema)
    .max(CONTENT_LIMITS.maxElementsPerVideo, { message: `at most ${CONTENT_LIMITS.maxElementsPerVideo} elements` })
    .default([]),
  /** Where the creator placed it on the funnel map (left out: the map lays it out). */
  map: mapPositionSchema.optional(),
});

/** A funnel's settings; search engines index its player page only when the creator allows it (off by default). */
export const funnelSettingsSchema = z.object({ enable_resume_play: bool(false), allow_indexing: bool(false) }).prefault({});

const title = z.string({ message: 'The title field is required.' }).trim().min(1, { message: 'The title field is required.' }).max(255, {
  message: 'The title field must not be greater than 255 characters.',
});
const description = z.string({ message: 'The description field must be a string.' }).trim().max(5000, {
  message: 'The description field must not be greater than 5000 characters.',
});

/** POST funnels: title, description, settings (enable_resume_play, allow_indexing). */
export const funnelCreateSchema = z.object({
  title,
  description: description.nullish().transform((v) => v ?? ''),
  settings: funnelSettingsSchema,
});

/** PUT funnels/{id}: the whole funnel, with the cross-references checked. */
export const funnelDocumentSchema = z
  .object({
    title,
    description: description.nullish().transform((v) => v ?? ''),
    settings: funnelSettingsSchema,
    variables: z
      .array(variableSchema, { message: 'must be a list' })
      .max(LOGIC_LIMITS.maxVariables, { message: `at most ${LOGIC_LIMITS.maxVariables} variables` })
      .default([]),
    videos: z
      .array(funnelVideoSchema)
      .max(CONTENT_LIMITS.maxVideosPerFunnel, { message: `at most ${CONTENT_LIMITS.maxVideosPerFunnel} videos` })
      .default([]),
  })
  .superRefine((funnel, ctx) => {
    const names = new Set<string>();
    funnel.variables.forEach((v, i) => {
      if (names.has(v.name)) ctx.addIssue({ code: 'custom', path: ['variables', i, 'name'], message: 'must be unique in the funnel' });
      names.add(v.name);
    });
    // Names and types, once each text parses (a syntax error is already named at its field).
    const checkWhen = (src: string, path: Array<string | number>) => {
      const parsed = src.trim() === '' ? null : conditionOf(src);
      const error = parsed?.ok ? checkCondition(parsed.value, funnel.variables) : null;
      if (error) ctx.addIssue({ code: 'custom', path, message: `Condition "${src}" ${describeLogicError(error)}` });
    };
    const checkSet = (src: string, path: Array<string | number>) => {
      const parsed = src.trim() === '' ? null : assignmentOf(src);
      const error = parsed?.ok ? checkAssignment(parsed.value, funnel.variables) : null;
      if (error) ctx.addIssue({ code: 'custom', path, message: `Assignment "${src}" ${describeLogicError(error)}` });
    };
    funnel.videos.forEach((video, v) =>
      video.elements.forEach((element, e) => {
        const at = ['videos', v, 'elements', e];
        checkWhen(element.when, [...at, 'when']);
        if (element.type !== 'branch') return;
        checkWhen(element.data.settings.inactionWhen, [...at, 'data', 'settings', 'inactionWhen']);
        element.data.branches.forEach((branch, b) => {
          checkWhen(branch.when, [...at, 'data', 'branches', b, 'when']);
          branch.set.forEach((src, i) => checkSet(src, [...at, 'data', 'branches', b, 'set', i]));
        });
      }),
    );
    const editorIds = new Set<string>();
    funnel.videos.forEach((video, v) => {
      if (editorIds.has(video.editor_id)) ctx.addIssue({ code: 'custom', path: ['videos', v, 'editor_id'], message: 'must be unique in the funnel' });
      editorIds.add(video.editor_id);
    });
    const elementIds = new Set<string>();
    funnel.videos.forEach((video, v) => {
      video.elements.forEach((element, e) => {
        const at = (...rest: Array<string | number>) => ['videos', v, 'elements', e, ...rest];
        if (elementIds.has(element.id)) ctx.addIssue({ code: 'custom', path: at('id'), message: 'must be unique in the funnel' });
        elementIds.add(element.id);
        if (element.showAt > element.hideAt) ctx.addIssue({ code: 'custom', path: at('showAt'), message: 'must not be after hideAt' });
        if (element.belongsTo !== undefined && element.belongsTo !== video.editor_id) {
          ctx.addIssue({ code: 'custom', path: at('belongsTo'), message: "must be the editor_id of the element's video" });
        }
        if (element.type !== 'branch') return;
        const branchIds = new Set(element.data.branches.map((b) => b.id));
        element.data.branches.forEach((branch, b) => {
          if (branch.onclick === 'url' && !branch.externalLink) {
            ctx.addIssue({ code: 'custom', path: at('data', 'branches', b, 'externalLink'), message: MESSAGES.invalidUrl });
          }
          if (branch.onclick === 'branch' && (!branch.video || !editorIds.has(branch.video))) {
            ctx.addIssue({ code: 'custom', path: at('data', 'branches', b, 'video'), message: 'must be a video of this funnel' });
          }
        });
        const inaction = element.data.settings.inaction;
        if (inaction !== DEFAULT_INACTION && !branchIds.has(inaction) && httpUrl(inaction) === null) {
          ctx.addIssue({
            code: 'custom',
            path: at('data', 'settings', 'inaction'),
            message: "must be 'skip-and-continue', an http(s) URL or one of this element's branches",
          });
        }
      });
    });
  });

export type FunnelDocument = z.output<typeof funnelDocumentSchema>;
export type FunnelSettings = z.output<typeof funnelSettingsSchema>;
export type FunnelVideo = z.output<typeof funnelVideoSchema>;
export type FunnelElement = z.output<typeof elementSchema>;
export type BranchData = z.output<typeof branchDataSchema>;
export type TextData = z.output<typeof textDataSchema>;
export type Branch = z.output<typeof branchSchema>;
export type FunnelVariable = z.output<typeof variableSchema>;
