/**
 * Routes for the map's edges that the automatic layout did not route (a video was placed by hand)
 * or routed against the flow (a branch back to an earlier video, or to its own): each label gets a
 * spot of its own, clear of every card and every other label, and its edge passes through it.
 * Forward edges curve through their label; back edges go round the cards, below or above them.
 * Pure (no React), so it is unit-tested alone.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Box extends Point {
  width: number;
  height: number;
}

/**
 * How an edge is drawn between the handles React Flow gives it (the dot on the right of its source,
 * the end on the left of its target): 'curve' through `mid` (where its label sits); 'around' out to
 * `x1`, along `lane`, back in from `x2`.
 */
export type EdgeRoute = { shape: 'curve'; mid: Point } | { shape: 'around'; x1: number; x2: number; lane: number };

/** Room kept between a label and a card or another label. */
const LABEL_GAP = 6;
/** How far from a card a back edge turns down or up, and how much further each parallel one turns. */
const TURN = 22;
const TURN_STEP = 8;
/** A target whose left side is closer than this to the right of its source is not ahead of it: the edge goes round. */
const AHEAD = 24;

const right = (b: Box) => b.x + b.width;
const bottom = (b: Box) => b.y + b.height;
const xOverlap = (a: { x: number; width: number }, b: Box, gap: number) => a.x < right(b) + gap && b.x < a.x + a.width + gap;

/** The top (y) of ranges of `height` that would overlap one of `taken` (kept `gap` apart), merged and in order. */
const blocked = (x: number, width: number, height: number, taken: readonly Box[], gap: number): Array<[number, number]> => {
  const ranges = taken
    .filter((t) => xOverlap({ x, width }, t, gap))
    .map((t): [number, number] => [t.y - height - gap, bottom(t) + gap])
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
};

/** The free top nearest `y` among the `ranges` taken (up, down or either way). */
const freeIn = (ranges: ReadonlyArray<[number, number]>, y: number, way: 'up' | 'down' | 'either'): number => {
  const range = ranges.find(([from, to]) => y > from && y < to);
  if (!range) return y;
  const [up, down] = range;
  if (way === 'up') return up;
  if (way === 'down') return down;
  return y - up <= down - y ? up : down;
};

/** A box of `size` centred on `at`. */
const centred = (at: Point, { width, height }: { width: number; height: number }): Box => ({ x: at.x - width / 2, y: at.y - height / 2, width, height });

export interface RouteRequest {
  source: Box;
  target: Box;
  /** The label's size. */
  label: { width: number; height: number };
}

export interface Routed {
  route: EdgeRoute;
  labelBox: Box;
}

/** Whether an edge from `source` to `target` runs against the map's left-to-right flow (or loops back to its own video). */
export const runsBack = (source: Box, target: Box, same: boolean): boolean => same || target.x < right(source) + AHEAD;

/**
 * Routes `requests` in order, each label kept clear of the `cards`, the labels already `placed`
 * (the automatic layout's) and the ones routed before it. Edges between the same two videos in
 * either direction (a parallel group) thus get labels side by side and routes of their own.
 */
export const routeEdges = (
  requests: ReadonlyArray<RouteRequest & { same: boolean; pair: string }>,
  cards: readonly Box[],
  placed: readonly Box[],
): Routed[] => {
  const labels = [...placed];
  const backInPair = new Map<string, number>();
  return requests.map((r) => {
    const nth = backInPair.get(r.pair) ?? 0;
    const routed = runsBack(r.source, r.target, r.same) ? routeAround(r, cards, labels, nth) : routeCurve(r, cards, labels, nth);
    if (routed.route.shape === 'around') backInPair.set(r.pair, (backInPair.get(r.pair) ?? 0) + 1);
    labels.push(routed.labelBox);
    return routed;
  });
};

/** Whether a point falls inside a card (its border, where edges start and end, does not count). */
const inCard = (x: number, y: number, c: Box): boolean => x > c.x + 2 && x < right(c) - 2 && y > c.y + 2 && y < bottom(c) - 2;

/** Whether a level or upright line from `a` to `b` passes through a card. */
const lineHits = (a: Point, b: Point, cards: readonly Box[]): boolean =>
  cards.some((c) => Math.max(a.x, b.x) > c.x + 2 && Math.min(a.x, b.x) < right(c) - 2 && Math.max(a.y, b.y) > c.y + 2 && Math.min(a.y, b.y) < bottom(c) - 2);

/** Whether a route from `from` to `to`, as `routePath` draws it, passes through one of the `cards`. */
const hitsCard = (route: EdgeRoute, from: Point, to: Point, cards: readonly Box[]): boolean => {
  if (route.shape === 'around') {
    const corners = aroundCorners(route, from, to);
    return corners.slice(1).some((b, i) => lineHits(corners[i], b, cards));
  }
  for (const [p0, p1, p2, p3] of curveParts(route.mid, from, to)) {
    for (let k = 1; k < 16; k += 1) {
      const t = k / 16;
      const u = 1 - t;
      const x = u * u * u * p0.x + 3 * u * u * t * p1.x + 3 * u * t * t * p2.x + t * t * t * p3.x;
      const y = u * u * u * p0.y + 3 * u * u * t * p1.y + 3 * u * t * t * p2.y + t * t * t * p3.y;
      if (cards.some((c) => inCard(x, y, c))) return true;
    }
  }
  return false;
};

/** The handles an edge runs between: the middle of its source's right side and of its target's left side. */
const ends = (source: Box, target: Box): [Point, Point] => [
  { x: right(source), y: source.y + source.height / 2 },
  { x: target.x, y: target.y + target.height / 2 },
];

/**
 * A forward edge: its label halfway between the two cards, or the nearest free spot above or below
 * where the curve through it misses every card; else it goes round like a back edge.
 */
const routeCurve = (r: RouteRequest, cards: readonly Box[], labels: readonly Box[], nth: number): Routed => {
  const { source, target, label } = r;
  const [from, to] = ends(source, target);
  const ideal = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 };
  const x = ideal.x - label.width / 2;
  const wanted = ideal.y - label.height / 2;
  const ranges = blocked(x, label.width, label.height, [...cards, ...labels], LABEL_GAP);
  const tops = [wanted, ...ranges.flat()]
    .filter((y) => !ranges.some(([a, b]) => y > a && y < b) && Math.abs(y - wanted) < 1200)
    .sort((a, b) => Math.abs(a - wanted) - Math.abs(b - wanted));
  for (const top of tops) {
    const mid = { x: ideal.x, y: top + label.height / 2 };
    const route: EdgeRoute = { shape: 'curve', mid };
    if (!hitsCard(route, from, to, cards)) return { route, labelBox: centred(mid, label) };
  }
  return routeAround(r, cards, labels, nth);
};

/**
 * A back edge: out of its source's right side, down (or up) past both cards and any card in
 * between, along a lane where its label sits, and in from the left of its target. The nearer of
 * the lane below and the lane above that misses every card is taken; the `nth` edge of a pair
 * routed this way turns further out.
 */
const routeAround = ({ source, target, label }: RouteRequest, cards: readonly Box[], labels: readonly Box[], nth: number): Routed => {
  const [from, to] = ends(source, target);
  const middle = (from.y + to.y) / 2;
  // What blocks a lane between these turns (the same for each way round).
  const seen = new Map<string, Lanes>();
  const lanes = (x1: number, x2: number): Lanes => {
    const key = `${x1} ${x2}`;
    let found = seen.get(key);
    if (!found) {
      const labelX = (x1 + x2) / 2 - label.width / 2;
      found = {
        band: blocked(Math.min(x1, x2), Math.abs(x1 - x2), label.height, cards, LABEL_GAP),
        spot: blocked(labelX, label.width, label.height, [...cards, ...labels], LABEL_GAP),
      };
      seen.set(key, found);
    }
    return found;
  };
  const options = (['down', 'up', 'between'] as const).flatMap((way) => {
    let x1 = right(source) + TURN + nth * TURN_STEP;
    let x2 = target.x - TURN - nth * TURN_STEP;
    let route = aroundOn(way, x1, x2, source, target, label, lanes(x1, x2));
    // A card in the way of a turn: turn beyond it (a few times at most).
    for (let tries = 0; route && tries < 6; tries += 1) {
      const down = cardOn(x1, from.y, route.lane, cards);
      const up = cardOn(x2, route.lane, to.y, cards);
      if (!down && !up) break;
      if (down) x1 = right(down) + TURN;
      if (up) x2 = up.x - TURN;
      route = aroundOn(way, x1, x2, source, target, label, lanes(x1, x2));
    }
    if (!route) return [];
    const missed = !hitsCard(route, from, to, cards);
    return [{ route, missed, away: Math.abs(route.lane - middle) }];
  });
  const best = options.filter((o) => o.missed).sort((a, b) => a.away - b.away)[0] ?? options.sort((a, b) => a.away - b.away)[0];
  const at = { x: (best.route.x1 + best.route.x2) / 2, y: best.route.lane };
  return { route: best.route, labelBox: centred(at, label) };
};

/** The tops a lane's band is kept from by cards, and its label by cards and labels. */
interface Lanes {
  band: Array<[number, number]>;
  spot: Array<[number, number]>;
}

/** A card that a vertical line at `x` between `y1` and `y2` passes through. */
const cardOn = (x: number, y1: number, y2: number, cards: readonly Box[]): Box | undefined =>
  cards.find((c) => x > c.x && x < right(c) && Math.max(y1, y2) > c.y && Math.min(y1, y2) < bottom(c));

/**
 * The lane below (or above) both cards, or in the gap between them when one is above the other,
 * where the band between the turns is clear of cards and the label of other labels (none: no
 * room in the gap).
 */
const aroundOn = (
  way: 'up' | 'down' | 'between',
  x1: number,
  x2: number,
  source: Box,
  target: Box,
  label: { width: number; height: number },
  { band, spot }: Lanes,
): Extract<EdgeRoute, { shape: 'around' }> | null => {
  const [upper, lower] = source.y <= target.y ? [source, target] : [target, source];
  const gap = { from: bottom(upper) + LABEL_GAP, to: lower.y - LABEL_GAP - label.height };
  if (way === 'between' && gap.to < gap.from) return null;
  let y =
    way === 'down'
      ? Math.max(bottom(source), bottom(target)) + LABEL_GAP
      : way === 'up'
        ? Math.min(source.y, target.y) - LABEL_GAP - label.height
        : (gap.from + gap.to) / 2;
  const search = way === 'between' ? 'either' : way;
  for (let tries = 0; tries < 200; tries += 1) {
    const clear = freeIn(spot, freeIn(band, y, search), search);
    if (clear === y) break;
    y = clear;
  }
  if (way === 'between' && (y < gap.from - 0.5 || y > gap.to + 0.5)) return null;
  return { shape: 'around', x1, x2, lane: y + label.height / 2 };
};

/** Where a route reaches, for the map's extent. */
export const routeBox = (route: EdgeRoute): Box =>
  route.shape === 'curve'
    ? { ...route.mid, width: 0, height: 0 }
    : { x: Math.min(route.x1, route.x2), y: route.lane, width: Math.abs(route.x1 - route.x2), height: 0 };

/** Straight lines through `points` with corners rounded by up to `radius` (never more than half a line). */
const rounded = (points: readonly Point[], radius: number): string => {
  let d = `M ${points[0].x} ${points[0].y}`;
  for (let i = 1; i < points.length - 1; i += 1) {
    const [a, c, b] = [points[i - 1], points[i], points[i + 1]];
    const inLen = Math.hypot(c.x - a.x, c.y - a.y);
    const outLen = Math.hypot(b.x - c.x, b.y - c.y);
    const r = Math.min(radius, inLen / 2, outLen / 2);
    if (r <= 0) {
      d += ` L ${c.x} ${c.y}`;
      continue;
    }
    const from = { x: c.x - ((c.x - a.x) / inLen) * r, y: c.y - ((c.y - a.y) / inLen) * r };
    const to = { x: c.x + ((b.x - c.x) / outLen) * r, y: c.y + ((b.y - c.y) / outLen) * r };
    d += ` L ${from.x} ${from.y} Q ${c.x} ${c.y} ${to.x} ${to.y}`;
  }
  const last = points[points.length - 1];
  return `${d} L ${last.x} ${last.y}`;
};

/** The corners of a route round the cards: out to `x1`, along the lane, back in from `x2`. */
const aroundCorners = ({ x1, x2, lane }: Extract<EdgeRoute, { shape: 'around' }>, from: Point, to: Point): Point[] => {
  const out = Math.max(x1, from.x);
  const into = Math.min(x2, to.x);
  return [from, { x: out, y: from.y }, { x: out, y: lane }, { x: into, y: lane }, { x: into, y: to.y }, to];
};

/** A curve through `mid` as two cubic Béziers, level where they meet (the label sits there). */
const curveParts = (mid: Point, from: Point, to: Point): Array<[Point, Point, Point, Point]> => {
  const out = Math.max(Math.abs(mid.x - from.x) / 2, 20);
  const into = Math.max(Math.abs(to.x - mid.x) / 2, 20);
  return [
    [from, { x: from.x + out, y: from.y }, { x: mid.x - out, y: mid.y }, mid],
    [mid, { x: mid.x + into, y: mid.y }, { x: to.x - into, y: to.y }, to],
  ];
};

/** The SVG path of a route from the source's handle to the target's. */
export const routePath = (route: EdgeRoute, from: Point, to: Point): string => {
  if (route.shape === 'around') return rounded(aroundCorners(route, from, to), 12);
  const [[p0, a1, a2, m], [, b1, b2, p3]] = curveParts(route.mid, from, to);
  return `M ${p0.x} ${p0.y} C ${a1.x} ${a1.y} ${a2.x} ${a2.y} ${m.x} ${m.y} C ${b1.x} ${b1.y} ${b2.x} ${b2.y} ${p3.x} ${p3.y}`;
};
