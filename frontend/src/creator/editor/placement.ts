import type { Branch, FunnelElement } from '@branchify/shared';
import { SAFE_AREA, type Point } from './timeline-math';

/**
 * Where a new element or button goes: the first spot inside the safe area where its box overlaps
 * no part of what is on the video while it shows. Boxes are estimated from the content (font size,
 * text length, paddings) in the 640×360 design space, with room to spare, since the store places
 * them before any of it is drawn.
 */

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** Space kept between a new box and its neighbours. */
export const PLACEMENT_GAP_PX = 8;
/** Candidate spots are tried on this grid. */
const GRID_PX = 4;
/** Root font size the design space is drawn with (rem). */
const REM_PX = 16;
/** A generous average glyph width, in ems, so an estimate errs on the large side. */
const GLYPH_EM = 0.6;
/** Where a branch element keeps its prompt: the first row, above the buttons. */
export const PROMPT_ROW = { width: 200, height: 44 } as const;

type BranchElement = Extract<FunnelElement, { type: 'branch' }>;
type TextElement = Extract<FunnelElement, { type: 'text' }>;

const textWidth = (text: string, sizeRem: number) => Math.max(1, text.length) * sizeRem * REM_PX * GLYPH_EM;

/** A standard button's (or an image branch's) box, at its own position relative to the element. */
export const branchSize = (branch: Branch): { width: number; height: number } => {
  if (branch.type === 'image') return { width: branch.image.width, height: branch.image.height };
  const s = branch.standard;
  const pad = s.background.padding;
  const border = 4;
  return {
    width: Math.ceil(textWidth(s.text || branch.name, s.fontSize) + pad.left + pad.right + border),
    height: Math.ceil(s.fontSize * REM_PX * 1.3 + pad.top + pad.bottom + border),
  };
};

const textBox = (element: TextElement): Box => {
  const at = element.data.position ?? element.position;
  const width = element.width ?? 240;
  const line = element.data.fontSize * REM_PX * 1.2;
  const lines = Math.max(1, Math.ceil(textWidth(element.data.title, element.data.fontSize) / width));
  return { top: at.top, left: at.left, width, height: Math.ceil(lines * line) };
};

/** Every part of a branch element: its prompt row (kept even while empty) and its buttons. */
export const branchElementBoxes = (element: BranchElement): Box[] => {
  const origin = element.position;
  const prompt = element.data.prompt;
  const promptBox = {
    top: origin.top + prompt.position.top,
    left: origin.left + prompt.position.left,
    width: Math.max(PROMPT_ROW.width, textWidth(prompt.text, prompt.fontSize) + 8),
    height: Math.max(PROMPT_ROW.height, prompt.fontSize * REM_PX * 1.2),
  };
  const buttons = element.data.branches.map((b) => {
    const own = b.type === 'image' ? b.image.position : b.standard.position;
    return { top: origin.top + own.top, left: origin.left + own.left, ...branchSize(b) };
  });
  return [promptBox, ...buttons];
};

/** What an element covers on the video. */
export const elementBoxes = (element: FunnelElement): Box[] => (element.type === 'text' ? [textBox(element)] : branchElementBoxes(element));

/** Elements of the video that show at some moment of `window`. */
export const overlappingInTime = (elements: readonly FunnelElement[], window: { showAt: number; hideAt: number }): FunnelElement[] =>
  elements.filter((e) => e.active !== false && e.showAt <= window.hideAt && window.showAt <= e.hideAt);

const intersects = (a: Box, b: Box, gap: number) =>
  a.left < b.left + b.width + gap && b.left < a.left + a.width + gap && a.top < b.top + b.height + gap && b.top < a.top + a.height + gap;

/**
 * The free spot for a box of `size` among `taken` boxes inside the safe area of `area`, nearest
 * `near` (default: the safe area's top-left corner, so spots fill in reading order), or null when
 * nothing is free.
 */
export const freeSpot = (
  size: { width: number; height: number },
  taken: readonly Box[],
  area: { width: number; height: number },
  near?: Point,
): Point | null => {
  const minTop = SAFE_AREA.top;
  const minLeft = SAFE_AREA.left;
  const maxTop = area.height - SAFE_AREA.bottom - size.height;
  const maxLeft = area.width - SAFE_AREA.right - size.width;
  if (maxTop < minTop || maxLeft < minLeft) return null;
  const candidates: Point[] = [];
  for (let top = minTop; top <= maxTop; top += GRID_PX) for (let left = minLeft; left <= maxLeft; left += GRID_PX) candidates.push({ top, left });
  if (near) {
    const d = (p: Point) => Math.hypot(p.top - near.top, p.left - near.left);
    candidates.sort((a, b) => d(a) - d(b));
  }
  return candidates.find((p) => !taken.some((t) => intersects({ ...p, ...size }, t, PLACEMENT_GAP_PX))) ?? null;
};

/** A spot clamped into the safe area (when nothing is free: the least bad place is still visible). */
export const insideSafeArea = (p: Point, size: { width: number; height: number }, area: { width: number; height: number }): Point => ({
  top: Math.max(SAFE_AREA.top, Math.min(p.top, area.height - SAFE_AREA.bottom - size.height)),
  left: Math.max(SAFE_AREA.left, Math.min(p.left, area.width - SAFE_AREA.right - size.width)),
});
