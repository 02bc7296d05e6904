/**
 * The timeline's arithmetic, free of React: zoom, time ↔ pixels, snapping, the h:m:s parsing
 * and clamping of typed times, and where new elements and branches are placed. Every function
 * takes plain readonly values and returns new ones.
 */
import { clockTime } from '@branchify/shared';

/** The timeline shows 10 boxes across its width at zoom 0. */
const TIMELINE_BOXES = 10;
/** At least 4 rows, one per element beyond that. */
const TIMELINE_MIN_ROWS = 4;
/** Zoom starts at 0 and moves in steps of 25 (percent); each step adds one more view-width. */
export const ZOOM_DEFAULT = 0;
export const ZOOM_STEP = 25;
export const ZOOM_MAX = 200;
/** A new element shows for 5 s (or to the video's end when that comes sooner). */
const NEW_ELEMENT_SECONDS = 5;
/** Bars and the playhead snap to each other's edges within this many pixels. */
const SNAP_PX = 6;
/** The shortest an element can be shown for. */
export const MIN_BAR_SECONDS = 0.1;
/** Until a video reports its duration, the timeline spans this long. */
const FALLBACK_DURATION = 60;
/** New elements are staggered by 30 px, new branches inside a branch element by 20 px. */
export const ELEMENT_STAGGER_PX = 30;
export const BRANCH_STAGGER_PX = 20;
/** A duplicated branch lands 30 px down and right of its original. */
const DUPLICATE_OFFSET_PX = 30;
/**
 * Where new elements and buttons are placed (design pixels from each edge of the 640×360 box):
 * clear of the edges, and of the player's controls along the bottom.
 */
export const SAFE_AREA = { top: 18, right: 32, bottom: 54, left: 32 } as const;
/** The smallest box an element can be resized to on the video. */
export const MIN_BOX_PX = 100;

export interface TimelineScale {
  /** Seconds the timeline spans. */
  readonly duration: number;
  /** The visible width in pixels (what 10 boxes fill at zoom 0). */
  readonly viewWidth: number;
  readonly zoom: number;
}

export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/** The duration the timeline works with: the video's, else long enough for every element. */
export const timelineDuration = (videoDuration: number | null | undefined, latestHideAt = 0): number =>
  videoDuration && videoDuration > 0 ? videoDuration : Math.max(FALLBACK_DURATION, Math.ceil(latestHideAt));

export const clampZoom = (zoom: number): number => clamp(Math.round(zoom / ZOOM_STEP) * ZOOM_STEP, 0, ZOOM_MAX);
export const zoomIn = (zoom: number): number => clampZoom(zoom + ZOOM_STEP);
export const zoomOut = (zoom: number): number => clampZoom(zoom - ZOOM_STEP);

/** How many view-widths the whole duration takes at this zoom (1 at zoom 0). */
export const zoomFactor = (zoom: number): number => 1 + clampZoom(zoom) / ZOOM_STEP;

export const pxPerSecond = (s: TimelineScale): number => (s.viewWidth * zoomFactor(s.zoom)) / Math.max(s.duration, MIN_BAR_SECONDS);

/** The full width of the timeline's content. */
export const contentWidth = (s: TimelineScale): number => s.viewWidth * zoomFactor(s.zoom);

export const timeToPx = (seconds: number, s: TimelineScale): number => seconds * pxPerSecond(s);

/** Pixels to seconds, kept inside the video. */
export const pxToTime = (px: number, s: TimelineScale): number => clamp(px / pxPerSecond(s), 0, s.duration);

/** The ruler: where each box starts, in seconds (10 per view-width). */
export const boxStarts = (s: TimelineScale): number[] => {
  const count = TIMELINE_BOXES * zoomFactor(s.zoom);
  const step = s.duration / count;
  return Array.from({ length: count }, (_, i) => i * step);
};

export const rowCount = (elements: number): number => Math.max(TIMELINE_MIN_ROWS, elements);

/** When a new element shows at `showAt` (of a video `duration` long), it hides 5 s later, or at the video's end when that is sooner. */
export const defaultHideAt = (showAt: number, duration: number): number =>
  clamp(showAt + NEW_ELEMENT_SECONDS, Math.min(showAt + MIN_BAR_SECONDS, duration), duration);

/** The nearest target within `thresholdPx`, else the time itself. */
export const snapTime = (seconds: number, targets: readonly number[], s: TimelineScale, thresholdPx = SNAP_PX): number => {
  let best = seconds;
  let bestDistance = thresholdPx / pxPerSecond(s);
  for (const target of targets) {
    const distance = Math.abs(target - seconds);
    if (distance <= bestDistance) {
      best = target;
      bestDistance = distance;
    }
  }
  return best;
};

export interface Bar {
  readonly showAt: number;
  readonly hideAt: number;
}

/** A bar moved to start at `showAt`: same length, kept inside [0, duration]. */
export const moveBar = (bar: Bar, showAt: number, duration: number): Bar => {
  const length = Math.min(Math.max(bar.hideAt - bar.showAt, MIN_BAR_SECONDS), duration);
  const start = clamp(showAt, 0, Math.max(0, duration - length));
  return { showAt: round(start), hideAt: round(start + length) };
};

/** One edge of a bar moved: never past the other edge (minus the shortest length), never outside the video. */
export const resizeBar = (bar: Bar, edge: 'start' | 'end', seconds: number, duration: number): Bar => {
  if (edge === 'start') return { showAt: round(clamp(seconds, 0, bar.hideAt - MIN_BAR_SECONDS)), hideAt: bar.hideAt };
  return { showAt: bar.showAt, hideAt: round(clamp(seconds, bar.showAt + MIN_BAR_SECONDS, duration)) };
};

/** Times keep two decimals (what a frame-accurate click needs, no float noise). */
export const round = (seconds: number): number => Math.round(seconds * 100) / 100;

/**
 * A typed time as seconds: 'h:m:s', 'm:s' or 's' (seconds may have decimals). Lower units of a
 * compound time stay below 60. Returns null for anything else.
 */
export const parseTime = (input: string): number | null => {
  const text = input.trim();
  if (!text) return null;
  const parts = text.split(':');
  if (parts.length > 3) return null;
  const numbers: number[] = [];
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    if (!(last ? /^\d+(\.\d+)?$/ : /^\d+$/).test(part)) return null;
    numbers.push(Number(part));
  }
  if (numbers.slice(1).some((n) => n >= 60)) return null;
  return numbers.reduce((total, n) => total * 60 + n, 0);
};

/** Seconds as 'm:ss' or 'h:mm:ss', with tenths when the time has them ('1:02.5'). */
export const formatTimecode = (seconds: number): string => clockTime(seconds, { tenths: true });

/** A typed time, parsed and clamped to [min, max]; null when it does not parse. */
export const parseClampedTime = (input: string, min: number, max: number): number | null => {
  const parsed = parseTime(input);
  return parsed === null ? null : round(clamp(parsed, min, max));
};

/** The bounds of a Jump To Timestamp's hours, minutes and seconds, from the video's duration. */
export const timestampBounds = (duration: number | null | undefined): { hours: number; minutes: number; seconds: number } => {
  const d = Math.max(0, Math.floor(duration ?? 0));
  return { hours: Math.floor(d / 3600), minutes: d >= 3600 ? 59 : Math.floor(d / 60), seconds: d >= 60 ? 59 : d };
};

/** A timestamp's parts clamped to their bounds and, as a whole, to the video. */
export const clampTimestamp = (
  t: { hours: number; minutes: number; seconds: number },
  duration: number | null | undefined,
): { hours: number; minutes: number; seconds: number } => {
  const bounds = timestampBounds(duration);
  const parts = {
    hours: clamp(Math.floor(t.hours) || 0, 0, bounds.hours),
    minutes: clamp(Math.floor(t.minutes) || 0, 0, bounds.minutes),
    seconds: clamp(Math.floor(t.seconds) || 0, 0, bounds.seconds),
  };
  const total = parts.hours * 3600 + parts.minutes * 60 + parts.seconds;
  const max = Math.floor(duration ?? 0);
  if (duration && total > max) return { hours: Math.floor(max / 3600), minutes: Math.floor((max % 3600) / 60), seconds: max % 60 };
  return parts;
};

export interface Point {
  readonly top: number;
  readonly left: number;
}

/**
 * Where the n-th new item goes: `step` px further down and right than the one before, wrapping
 * back to the corner before it would leave a box of `area` (the player's design size).
 */
export const staggered = (index: number, step: number, area: { width: number; height: number }, origin: Point = { top: 0, left: 0 }): Point => {
  const rows = Math.max(1, Math.floor((area.height - MIN_BOX_PX) / step));
  const cols = Math.max(1, Math.floor((area.width - MIN_BOX_PX) / step));
  const n = index % Math.min(rows, cols);
  return { top: origin.top + n * step, left: origin.left + n * step };
};

/** A duplicate's position: 30 px down and right of the original. */
export const duplicatePosition = (p: Point): Point => ({ top: p.top + DUPLICATE_OFFSET_PX, left: p.left + DUPLICATE_OFFSET_PX });

/** 'Branch N' for the next branch: one more than the highest N in use (or than the count). */
export const nextBranchName = (names: readonly string[]): string => {
  const used = names
    .map((n) => /^Branch (\d+)$/.exec(n)?.[1])
    .filter((n): n is string => Boolean(n))
    .map(Number);
  return `Branch ${Math.max(names.length, ...used, 0) + 1}`;
};

/**
 * Where the timeline scrolls when its scale changes (zoom, or the view's width): the playhead
 * keeps its place in the view, or, when it was out of view, comes to the middle of it.
 */
export const scrollKeepingPlayhead = (time: number, before: TimelineScale, after: TimelineScale, scrollLeft: number, clientWidth: number): number => {
  let offset = timeToPx(time, before) - scrollLeft;
  if (offset < 0 || offset > clientWidth) offset = clientWidth / 2;
  return clamp(timeToPx(time, after) - offset, 0, Math.max(0, contentWidth(after) - clientWidth));
};
