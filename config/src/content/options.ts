/** The option lists, shared by the editor, the player and the server's schema. */

export const CLICK_ACTIONS = [
  { value: 'url', label: 'Open URL' },
  { value: 'branch', label: 'Branch To' },
  { value: 'timestamp', label: 'Jump To Timestamp' },
] as const;
export const CLICK_ACTION_VALUES = ['url', 'branch', 'timestamp'] as const;

export const FONT_SIZES = [0.625, 0.75, 1, 1.25, 1.5, 2, 2.5, 3] as const;

export const ANIMATIONS = ['none', 'slide-in-and-out', 'fade-in-and-out', 'grow-and-shrink', 'bounce', 'jello', 'heart-beat'] as const;

export const GRADIENT_DIRECTIONS = [
  'to bottom',
  'to top',
  'to left',
  'to right',
  'to left bottom',
  'to left top',
  'to right bottom',
  'to right top',
  'outer-radial',
  'inner-radial',
] as const;

export const BACKGROUND_TYPES = ['image', 'color'] as const;
export const BRANCH_LAYOUTS = ['standard', 'image'] as const;

/** Corner styles with their radius. */
export const CORNER_STYLES = { square: '0px', rounded: '5px', circular: '50px' } as const;
export const CORNER_STYLE_VALUES = ['square', 'rounded', 'circular'] as const;

export const SHAPES = [
  'rectangle',
  'hollowed_rectangle',
  'circle',
  'hollowed_circle',
  'hexagon',
  'hollowed_hexagon',
  'right_chevron',
  'hollowed_right_chevron',
  'comment',
  'hollowed_comment',
  'stickynote',
] as const;

/** Font weights with their CSS weight; each also exists as `{name}-italic`. */
export const FONT_WEIGHTS = {
  thin: 100,
  'extra-light': 200,
  light: 300,
  regular: 400,
  medium: 500,
  'semi-bold': 600,
  bold: 700,
  'extra-bold': 800,
} as const;
export type FontWeightName = keyof typeof FONT_WEIGHTS;
export const FONT_THICKNESSES = (Object.keys(FONT_WEIGHTS) as FontWeightName[]).flatMap((name) => [name, `${name}-italic`]) as Array<
  FontWeightName | `${FontWeightName}-italic`
>;

/** Constants the editor and player share. */
export const CONTENT_LIMITS = {
  pauseMinSeconds: 10,
  borderMin: 1,
  borderMax: 15,
  branchImageKb: 2000,
  /** Uploaded raster images (branch images, logo, favicon): longest side and total pixels, read from the file's header. */
  imageMaxEdgePx: 6000,
  imageMaxPixels: 24_000_000,
  fadeOutMs: 500,
  seekStepSeconds: 10,
  genericPreviewSeconds: 2,
  maxVideosPerFunnel: 200,
  maxElementsPerVideo: 200,
  maxBranchesPerElement: 20,
  /** A video's stored place on the funnel map: each coordinate within ± this. */
  mapCoordinateMax: 1_000_000,
} as const;

export const DEFAULT_INACTION = 'skip-and-continue';
