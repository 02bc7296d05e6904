import { routeEdges, routePath, runsBack, type Box } from '../../frontend/src/creator/map/map-routes';

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const card = (x: number, y: number): Box => ({ x, y, width: 220, height: 196 });
const label = { width: 120, height: 30 };

describe('routes of the map edges the automatic layout does not route', () => {
  it('gives each edge between the same two videos, either way, a label of its own, clear of the cards', () => {
    const a = card(0, 0);
    const b = card(500, 60);
    const request = (source: Box, target: Box) => ({ source, target, label, same: false, pair: 'a>b' });
    const routed = routeEdges([request(a, b), request(a, b), request(a, b), request(b, a), request(b, a)], [a, b], []);
    const boxes = routed.map((r) => r.labelBox);
    for (const [i, box] of boxes.entries()) {
      for (const other of boxes.slice(i + 1)) expect(overlaps(box, other)).toBe(false);
      expect(overlaps(box, a) || overlaps(box, b)).toBe(false);
    }
    expect(routed.slice(0, 3).map((r) => r.route.shape)).toEqual(['curve', 'curve', 'curve']);
    // The two back edges go round both cards, on lanes and turns of their own.
    const back = routed.slice(3).map((r) => r.route);
    for (const route of back) {
      expect(route.shape).toBe('around');
      if (route.shape !== 'around') continue;
      expect(route.lane > 256 || route.lane < 0).toBe(true);
      expect(route.x1).toBeGreaterThan(720);
      expect(route.x2).toBeLessThan(0);
    }
    expect(new Set(back.map((r) => JSON.stringify(r))).size).toBe(2);
  });

  it('routes a branch to the video below through the gap between them, and one back to its own video round it', () => {
    const upper = card(0, 0);
    const lower = card(0, 300);
    expect(runsBack(upper, lower, false)).toBe(true);
    const [down, loop] = routeEdges(
      [
        { source: upper, target: lower, label, same: false, pair: 'u>l' },
        { source: upper, target: upper, label, same: true, pair: 'u>u' },
      ],
      [upper, lower],
      [],
    );
    expect(down.route).toMatchObject({ shape: 'around' });
    expect(down.labelBox.y).toBeGreaterThan(196);
    expect(down.labelBox.y + label.height).toBeLessThan(300);
    expect(loop.route.shape).toBe('around');
    expect(overlaps(loop.labelBox, upper) || overlaps(loop.labelBox, lower) || overlaps(loop.labelBox, down.labelBox)).toBe(false);
    expect(routePath(down.route, { x: 227, y: 98 }, { x: -7, y: 398 })).toMatch(/^M 227 98 L /);
  });

  it('keeps a label clear of labels the automatic layout placed', () => {
    const a = card(0, 0);
    const b = card(500, 0);
    const placed: Box = { x: 300, y: 83, width: 120, height: 30 };
    const [routed] = routeEdges([{ source: a, target: b, label, same: false, pair: 'a>b' }], [a, b], [placed]);
    expect(overlaps(routed.labelBox, placed)).toBe(false);
  });
});
