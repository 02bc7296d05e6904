import {
  ANIMATIONS,
  CLICK_ACTIONS,
  CORNER_STYLE_VALUES,
  FONT_SIZES,
  FONT_THICKNESSES,
  GRADIENT_DIRECTIONS,
  SHAPES,
  BACKGROUND_TYPES,
  BRANCH_LAYOUTS,
} from '@branchify/shared';

/** The shared option lists as select options, with readable labels. */
const words = (value: string) => value.replace(/[-_]/g, ' ').replace(/^./, (c) => c.toUpperCase());

export const FONT_SIZE_OPTIONS = FONT_SIZES.map((v) => ({ value: v, label: `${v} rem` }));
export const THICKNESS_OPTIONS = FONT_THICKNESSES.map((v) => ({ value: v, label: words(v) }));
export const ANIMATION_OPTIONS = ANIMATIONS.map((v) => ({ value: v, label: words(v) }));
export const GRADIENT_OPTIONS = GRADIENT_DIRECTIONS.map((v) => ({ value: v, label: words(v) }));
export const SHAPE_OPTIONS = SHAPES.map((v) => ({ value: v, label: words(v) }));
export const CORNER_OPTIONS = CORNER_STYLE_VALUES.map((v) => ({ value: v, label: words(v) }));
export const BACKGROUND_OPTIONS = BACKGROUND_TYPES.map((v) => ({ value: v, label: words(v) }));
export const LAYOUT_OPTIONS = BRANCH_LAYOUTS.map((v) => ({ value: v, label: words(v) }));
export const CLICK_ACTION_OPTIONS = CLICK_ACTIONS.map((a) => ({ value: a.value, label: a.label }));
