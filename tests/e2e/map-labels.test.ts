import type { Browser, Locator, Page } from 'playwright-core';
import { viewer } from '../api/support/analytics';
import { freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { launch, loginViaUi, openApp, shot, shotAtBothWidths, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { branchEl, publishFunnel } from './support/funnels';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

type Rect = { id: string; x: number; y: number; w: number; h: number };
type Drawn = { cards: Rect[]; labels: Rect[]; paths: Array<{ id: string; d: string; points: Array<{ x: number; y: number }> }> };

const button = (id: string, text: string, video: string, when?: string) => ({
  id,
  name: text,
  type: 'standard',
  onclick: 'branch',
  video,
  ...(when ? { when } : {}),
  standard: { text },
});

/**
 * What the browser drew: every card's and every edge label's box on screen, and points along
 * each edge's path (200 steps of getPointAtLength, in screen coordinates).
 */
const drawn = (map: Locator): Promise<Drawn> =>
  map.evaluate((root) => {
    const box = (el: Element, id: string) => {
      const r = el.getBoundingClientRect();
      return { id, x: r.x, y: r.y, w: r.width, h: r.height };
    };
    const cards = Array.from(root.querySelectorAll('.react-flow__node'), (el) => box(el, el.getAttribute('data-id') ?? ''));
    const labels = Array.from(root.querySelectorAll('[data-testid^="map-edge-branch:"], [data-testid^="map-edge-inaction:"]'), (el) =>
      box(el, el.getAttribute('data-testid') ?? ''),
    );
    const paths = Array.from(root.querySelectorAll('.react-flow__edge'), (g) => {
      const path = g.querySelector('path.react-flow__edge-path') as SVGPathElement;
      const m = path.getScreenCTM()!;
      const length = path.getTotalLength();
      const points = Array.from({ length: 201 }, (_, i) => {
        const p = path.getPointAtLength((length * i) / 200);
        return { x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f };
      });
      return { id: g.getAttribute('data-id') ?? '', d: path.getAttribute('d') ?? '', points };
    });
    return { cards, labels, paths };
  });

const overlap = (a: Rect, b: Rect) => a.x + 0.5 < b.x + b.w && b.x + 0.5 < a.x + a.w && a.y + 0.5 < b.y + b.h && b.y + 0.5 < a.y + a.h;
/** Strictly inside a card (3 px in from its border, where an edge starts and ends). */
const inside = (p: { x: number; y: number }, c: Rect) => p.x > c.x + 3 && p.x < c.x + c.w - 3 && p.y > c.y + 3 && p.y < c.y + c.h - 3;

/** Every clash on the map: two labels on each other, a label on a card, an edge through a card. */
const clashes = ({ cards, labels, paths }: Drawn): string[] => {
  const found: string[] = [];
  for (const [i, a] of labels.entries()) {
    for (const b of labels.slice(i + 1)) if (overlap(a, b)) found.push(`label ${a.id} × label ${b.id}`);
    for (const c of cards) if (overlap(a, c)) found.push(`label ${a.id} × card ${c.id}`);
  }
  for (const p of paths) {
    for (const c of cards) if (p.points.some((pt) => inside(pt, c))) found.push(`edge ${p.id} through card ${c.id}`);
  }
  return found;
};

/** The edges between intro and plans, either way: each drawn its own way. */
const PAIR = ['branch:intro:see-plans', 'branch:intro:compare', 'inaction:intro:ask', 'branch:plans:back', 'branch:plans:again'];

const expectSeparateRoutes = (map: Drawn) => {
  const ds = PAIR.map((id) => map.paths.find((p) => p.id === id)?.d);
  expect(ds.every(Boolean)).toBe(true);
  expect(new Set(ds).size).toBe(PAIR.length);
  expect(map.labels.filter((l) => PAIR.some((id) => l.id === `map-edge-${id}`))).toHaveLength(PAIR.length);
};

/** The zoom buttons' box against every card's (the first view leaves room for them). */
const controlsClear = (map: Locator) =>
  map.evaluate((root) => {
    const c = root.querySelector('.react-flow__controls')!.getBoundingClientRect();
    return Array.from(root.querySelectorAll('.react-flow__node'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.x < c.right && c.x < r.right && r.y < c.bottom && c.y < r.bottom;
      })
      .map((el) => el.getAttribute('data-id'));
  });

type Point = { x: number; y: number };
const centre = async (target: Locator): Promise<Point> => {
  const b = await target.boundingBox();
  if (!b) throw new Error('not on screen');
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
};
const drag = async (page: Page, from: Point, to: Point) => {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 8, from.y + 4, { steps: 2 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
};

describeBrowser('funnel map labels and routes', () => {
  let browser: Browser;
  let owner: Session;

  beforeAll(async () => {
    const admin = await adminSession();
    owner = await subscribedUser(admin, (await freePlan(admin)).id);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('gives two branches between the same videos and a branch back their own routes and labels, none on another or on a card, in the editor and on the analytics map', async () => {
    const { id, reference } = await publishFunnel(
      owner,
      { intro: hostedMediaUrl('labels-intro'), plans: hostedMediaUrl('labels-plans'), offer: hostedMediaUrl('labels-offer') },
      (ids) => ({
        title: 'Parallel and back branches',
        variables: [{ name: 'score', type: 'number', default: 0, fromUrl: false }],
        videos: [
          {
            id: ids.intro,
            editor_id: 'intro',
            elements: [
              branchEl(
                'ask',
                'intro',
                1,
                6,
                [
                  button('see-plans', 'See the plans', 'plans', 'score < 3'),
                  button('compare', 'Compare plans', 'plans'),
                  button('to-offer', 'Straight to the offer', 'offer'),
                ],
                { inaction: 'see-plans' },
              ),
            ],
          },
          {
            id: ids.plans,
            editor_id: 'plans',
            elements: [branchEl('loop', 'plans', 1, 6, [button('back', 'Back to the intro', 'intro'), button('again', 'Start over', 'intro')])],
          },
          { id: ids.offer, editor_id: 'offer', elements: [branchEl('more', 'offer', 1, 6, [button('offer-plans', 'Compare first', 'plans')])] },
        ],
      }),
    );
    const { context, page } = await openApp(browser, { viewport: { width: 1440, height: 900 } });
    await routeMediaHost(context);
    await loginViaUi(page, owner.email, owner.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${id}/edit`);
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.getByRole('region', { name: 'Funnel map' });
    await map.getByTestId('map-edge-branch:plans:again').waitFor();

    // As laid out: five edges between intro and plans (three one way, two back), each on its own path with its own label.
    const first = await drawn(map);
    expect(clashes(first)).toEqual([]);
    expectSeparateRoutes(first);
    // The branch back runs round the cards: below or above both of them.
    const [intro, plans] = ['intro', 'plans'].map((n) => first.cards.find((c) => c.id === n)!);
    const back = first.paths.find((p) => p.id === 'branch:plans:back')!;
    const lowest = Math.max(...back.points.map((p) => p.y));
    const highest = Math.min(...back.points.map((p) => p.y));
    expect(lowest > Math.max(intro.y + intro.h, plans.y + plans.h) || highest < Math.min(intro.y, plans.y)).toBe(true);
    expect(await controlsClear(map)).toEqual([]);
    await shot(page, 'map-labels-parallel-back-1440');

    // A video moved by hand (below and to the left of where it was): routed again, still clear of each other and of the cards.
    await map.getByRole('button', { name: 'Fit View' }).click();
    await page.waitForTimeout(300);
    const grab = await centre(map.getByTestId('map-node-title-plans'));
    await drag(page, grab, { x: grab.x - 60, y: grab.y + 120 });
    await until(async () => (await page.getByTestId('map-status').innerText()).includes('Moved plans.'), 'the move');
    await map.getByRole('button', { name: 'Fit View' }).click();
    await page.waitForTimeout(300);
    const moved = await drawn(map);
    expect(clashes(moved)).toEqual([]);
    expectSeparateRoutes(moved);
    await shot(page, 'map-labels-moved-1440');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('saved').waitFor();

    // The analytics map, with each branch's figures on a line of its own, from the saved places.
    await viewer(reference).view([{ node: 'see-plans', to: 'plans', from: 'intro' }], 'plans');
    await viewer(reference).view([{ node: 'compare', to: 'plans', from: 'intro' }], 'plans');
    await page.goto(`/funnels/${id}/analytics`);
    await until(
      async () => {
        if (await page.getByTestId('analytics-report').isVisible()) return true;
        await page.reload();
        await page.getByTestId('analytics-report').or(page.getByTestId('analytics-empty')).waitFor();
        return page.getByTestId('analytics-report').isVisible();
      },
      'the views in the report',
      30_000,
    );
    const figures = page.getByRole('region', { name: 'Funnel map with view figures' });
    await expect(figures.getByTestId('map-edge-stats-branch:intro:see-plans').innerText()).resolves.toBe('1 view · 50%');
    await expect(figures.getByTestId('map-edge-stats-branch:intro:compare').innerText()).resolves.toBe('1 view · 50%');
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await figures.getByTestId('map-edge-stats-branch:plans:again').waitFor();
      await figures.scrollIntoViewIfNeeded();
      const onAnalytics = await drawn(figures);
      expect(clashes(onAnalytics)).toEqual([]);
      expectSeparateRoutes(onAnalytics);
      expect(await controlsClear(figures)).toEqual([]);
    }
    await shotAtBothWidths(page, 'map-labels-analytics');
    await context.close();
  });
});
