/**
 * Where a new node goes on the map: beside its source (to the right, then above or below it,
 * nearest first), else to the right of everything, never over another node. Pure, so it is
 * unit-tested alone.
 */

interface Point {
  x: number;
  y: number;
}
interface Box extends Point {
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Room kept between a new node and the nodes around it. */
const NODE_GAP = 40;
/** How many rows above and below the source are tried before the next column. */
const ROWS_TRIED = 6;

const grown = (box: Box, by: number): Box => ({ x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by });

/** Whether a node of `size` at `at` keeps clear of every one of `taken`. */
export const spotIsFree = (at: Point, size: { width: number; height: number }, taken: readonly Box[]): boolean => {
  const box = grown({ ...at, ...size }, NODE_GAP / 2);
  return !taken.some((t) => overlaps(box, grown(t, NODE_GAP / 2)));
};

/** The top-left corner for a node of `size` that overlaps none of `taken`, next to `near` when given. */
export const placeNode = (size: { width: number; height: number }, taken: readonly Box[], near?: Box | null): Point => {
  if (!near) {
    if (taken.length === 0) return { x: 16, y: 16 };
    const right = Math.max(...taken.map((t) => t.x + t.width));
    const top = Math.min(...taken.map((t) => t.y));
    return { x: right + NODE_GAP, y: top };
  }
  const step = size.height + NODE_GAP;
  for (let column = 1; ; column += 1) {
    const x = near.x + column * (near.width + NODE_GAP);
    for (let row = 0; row <= ROWS_TRIED; row += 1) {
      for (const y of row === 0 ? [near.y] : [near.y + row * step, near.y - row * step]) {
        if (spotIsFree({ x, y }, size, taken)) return { x, y };
      }
    }
  }
};

/** Places several nodes in turn, each kept clear of the ones placed before it. */
export const placeNodes = (count: number, size: { width: number; height: number }, taken: readonly Box[], near?: Box | null): Point[] => {
  const all = [...taken];
  const placed: Point[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = placeNode(size, all, near);
    placed.push(at);
    all.push({ ...at, ...size });
  }
  return placed;
};
