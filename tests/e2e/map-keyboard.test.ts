import type { Browser, Locator, Page } from 'playwright-core';
import { freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { launch, loginViaUi, openApp, shot, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { publishFunnel } from './support/funnels';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

type Point = { x: number; y: number };

const centre = async (target: Locator): Promise<Point> => {
  const box = await target.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
};

/** A pointer drag in small steps, as a hand makes it; `rest` ms held still just after it starts. */
const drag = async (page: Page, from: Point, to: Point, rest = 0) => {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 8, from.y + 4, { steps: 2 });
  if (rest) await page.waitForTimeout(rest);
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
};

/** The map's pan and zoom (its viewport's transform). */
const viewportOf = (map: Locator) =>
  map.locator('.react-flow__viewport').evaluate((el) => {
    const m = new DOMMatrix(getComputedStyle(el).transform);
    return { x: m.e, y: m.f, zoom: m.a };
  });

/** A node's position on the map (its transform in flow coordinates). */
const positionOf = (node: Locator) =>
  node.evaluate((el) => {
    const m = new DOMMatrix(getComputedStyle(el).transform);
    return { x: Math.round(m.e), y: Math.round(m.f) };
  });

/** The cards and their dots that the zoom buttons cover. */
const underControls = (map: Locator) =>
  map.evaluate((root) => {
    const c = root.querySelector('.react-flow__controls')!.getBoundingClientRect();
    return Array.from(root.querySelectorAll('.react-flow__node, .react-flow__handle'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.x < c.right && c.x < r.right && r.y < c.bottom && c.y < r.bottom;
      })
      .map((el) => `${el.className} ${el.closest('.react-flow__node')?.getAttribute('data-id') ?? ''}`);
  });

const edgeIds = (map: Locator) => map.locator('.react-flow__edge').evaluateAll((els) => els.map((el) => el.getAttribute('data-id') ?? ''));
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-id') ?? document.activeElement?.textContent ?? null);

describeBrowser('the funnel map by keyboard and mouse', () => {
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

  it('selects only on a click, Space or an arrow (not as focus passes), opens on a double-click, Enter or Edit, keeps the zoom buttons off the cards, does not slide under a drag at its border, and undoes mouse edits with Ctrl+Z', async () => {
    const { id } = await publishFunnel(
      owner,
      { intro: hostedMediaUrl('mk-intro'), story: hostedMediaUrl('mk-story'), offer: hostedMediaUrl('mk-offer') },
      (ids) => ({
        title: 'Map by keyboard',
        videos: [
          { id: ids.intro, editor_id: 'mk-intro', elements: [] },
          { id: ids.story, editor_id: 'mk-story', elements: [] },
          { id: ids.offer, editor_id: 'mk-offer', elements: [] },
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
    const node = (editorId: string) => map.locator(`.react-flow__node[data-id="${editorId}"]`);
    const current = page.getByTestId('map-current');
    const status = page.getByTestId('map-status');
    await node('mk-offer').waitFor();

    // The first view leaves the zoom buttons clear of every card and its dots (three videos in a column, the third at the bottom).
    expect(await underControls(map)).toEqual([]);
    await shot(page, 'map-keyboard-first-view-1440');

    // Space selects the focused video; Tab then passes the other videos on its way to the toolbar without changing that.
    await page.getByRole('button', { name: 'Preview' }).focus();
    await page.keyboard.press('Tab');
    await until(async () => (await focusedId(page)) === 'mk-intro', 'focus on the first video');
    await page.keyboard.press('Space');
    await until(async () => (await current.innerText()) === 'Selected video: intro', 'intro selected');
    await until(async () => (await status.innerText()).includes('Selected intro.'), 'the announcement');
    expect(await map.getByTestId('map-node-mk-intro').getAttribute('data-selected')).toBe('true');
    const passed: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      await page.keyboard.press('Tab');
      const at = await focusedId(page);
      if (at?.includes('Branch to…')) break;
      passed.push(at ?? '');
      expect(await current.innerText()).toBe('Selected video: intro');
    }
    expect(passed).toEqual(expect.arrayContaining(['mk-story', 'mk-offer']));
    await shot(page, 'map-keyboard-toolbar-focused-1440');
    await page.keyboard.press('Enter');
    const branchFromIntro = page.getByRole('dialog', { name: "Branch from 'intro' to…" });
    await branchFromIntro.waitFor();
    await page.keyboard.press('Escape');
    await branchFromIntro.waitFor({ state: 'detached' });

    // B acts on the focused video (and selects it).
    await node('mk-offer').focus();
    await page.keyboard.press('b');
    const branchFromOffer = page.getByRole('dialog', { name: "Branch from 'offer' to…" });
    await branchFromOffer.waitFor();
    await page.keyboard.press('Escape');
    await branchFromOffer.waitFor({ state: 'detached' });
    expect(await current.innerText()).toBe('Selected video: offer');

    // A click selects, and only selects; Edit opens the selected video in the editor.
    await map.getByTestId('map-node-title-mk-story').click();
    await until(async () => (await current.innerText()) === 'Selected video: story', 'story selected by a click');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).searchParams.has('video')).toBe(false);
    await shot(page, 'map-keyboard-clicked-1440');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('video') === 'mk-story');
    await page.getByRole('dialog').first().waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('video'));
    // A double-click opens it.
    await map.getByTestId('map-node-title-mk-offer').dblclick();
    await page.waitForURL((url) => url.searchParams.get('video') === 'mk-offer');
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('video'));

    // Ctrl+Z right after a mouse edit: a branch drawn from intro's dot onto story, then a card moved.
    await map.getByRole('button', { name: 'Fit View' }).click();
    await page.waitForTimeout(300);
    await drag(page, await centre(node('mk-intro').locator('.react-flow__handle.source')), await centre(map.getByTestId('map-node-title-mk-story')));
    await until(async () => (await edgeIds(map)).some((e) => e.startsWith('branch:mk-intro:')), 'the drawn branch');
    await until(async () => (await status.innerText()).includes('Added a branch from intro to story.'), 'the announcement');
    const drawnBranch = (await edgeIds(map)).find((e) => e.startsWith('branch:mk-intro:'))!;
    await page.keyboard.press('Control+z');
    await until(async () => !(await edgeIds(map)).includes(drawnBranch), 'the branch undone');
    await page.keyboard.press('Control+Shift+z');
    await until(async () => (await edgeIds(map)).includes(drawnBranch), 'the branch redone');
    const placed = await positionOf(node('mk-offer'));
    const grab = await centre(map.getByTestId('map-node-title-mk-offer'));
    await drag(page, grab, { x: grab.x + 160, y: grab.y - 30 });
    await until(async () => (await status.innerText()).includes('Moved offer.'), 'the move');
    expect((await positionOf(node('mk-offer'))).x).toBeGreaterThan(placed.x + 100);
    // Focus left on the page, as a click on the map's background leaves it: Ctrl+Z still undoes.
    await map.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await page.keyboard.press('Control+z');
    await until(async () => (await positionOf(node('mk-offer'))).x === placed.x, 'the move undone');

    // The branch's end dragged from story at the map's left border (autopan's edge zone) to offer: the map stays where it is.
    const mapBox = (await map.boundingBox())!;
    const storyBox = (await node('mk-story').boundingBox())!;
    const from = { x: mapBox.x + mapBox.width - 60, y: mapBox.y + 30 };
    await drag(page, from, { x: from.x + (mapBox.x + 24 - storyBox.x), y: from.y });
    await until(async () => Math.abs((await node('mk-story').boundingBox())!.x - (mapBox.x + 24)) < 4, 'story at the left border');
    const before = await viewportOf(map);
    const end = map.locator(`.react-flow__edge[data-id="${drawnBranch}"] .react-flow__edgeupdater-target`);
    const start = await centre(end);
    expect(start.x - mapBox.x).toBeLessThan(40);
    await drag(page, start, await centre(map.getByTestId('map-node-title-mk-offer')), 600);
    await until(async () => (await status.innerText()).includes('now leads to offer'), 'the branch re-targeted');
    const after = await viewportOf(map);
    expect(Math.abs(after.x - before.x)).toBeLessThan(1);
    expect(Math.abs(after.y - before.y)).toBeLessThan(1);
    expect(after.zoom).toBeCloseTo(before.zoom, 5);
    await shot(page, 'map-keyboard-retargeted-at-border-1440');
    await context.close();
  });
});
