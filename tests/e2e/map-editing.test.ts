import type { Browser, Locator, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { baseUrl } from '../api/support/http';
import { addVideo, createFunnel, freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { launch, loginViaUi, openApp, shot, shotAtBothWidths, until, waitForPath } from './support/app';
import { describeBrowser, launchBrowser } from './support/browser';
import { publishFunnel, twoVideoFunnel } from './support/funnels';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

type Point = { x: number; y: number };

const centre = async (target: Locator): Promise<Point> => {
  const box = await target.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
};

/** A pointer drag in small steps, as a hand makes it. */
const drag = async (page: Page, from: Point, to: Point) => {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 8, from.y + 4, { steps: 2 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
};

/**
 * A finger's drag: touch events through the DevTools protocol, a step a frame, resting before it
 * lifts (a fast flick ends in a fling, which the browser stops with the next tap instead of clicking).
 */
const touchDrag = async (page: Page, from: Point, to: Point) => {
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', at?: Point) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: at ? [{ x: at.x, y: at.y }] : [] });
  await touch('touchStart', from);
  const steps = 12;
  for (let i = 1; i <= steps; i += 1) {
    await touch('touchMove', { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps });
    await page.waitForTimeout(16);
  }
  await page.waitForTimeout(200);
  await touch('touchEnd');
  await cdp.detach();
};

/** A node's position on the map (its transform in flow coordinates). */
const positionOf = (node: Locator) =>
  node.evaluate((el) => {
    const m = new DOMMatrix(getComputedStyle(el).transform);
    return { x: Math.round(m.e), y: Math.round(m.f) };
  });

/** Whether the locator's box lies wholly inside the map's. */
const inView = async (map: Locator, target: Locator): Promise<boolean> => {
  const [outer, inner] = await Promise.all([map.boundingBox(), target.boundingBox()]);
  if (!outer || !inner) return false;
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
};

const edgeIds = (map: Locator) => map.locator('.react-flow__edge').evaluateAll((els) => els.map((el) => el.getAttribute('data-id') ?? ''));

/** Focus on the map element with that flow id. */
const expectFocusOn = (page: Page, id: string) =>
  page.waitForFunction((want) => document.activeElement?.getAttribute('data-id') === want, id, { timeout: 10_000 });

const currentEditor = (page: Page) => page.locator('.bf-slot.bf-slot-current').getAttribute('data-editor-id');

describeBrowser('editing on the funnel map', () => {
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

  it('builds a three-video funnel on the map alone (draw, re-target, delete, undo, move), saves it, keeps the places, and plays every branch', async () => {
    for (const title of ['Welcome', 'Left path', 'Right path']) await addVideo(owner, { provider: 'generic', url: hostedMediaUrl(`map-edit-${title}`), title });
    const funnel = await createFunnel(owner, { title: 'Built on the map' });
    const { context, page } = await openApp(browser);
    await routeMediaHost(context);
    await page.setViewportSize({ width: 1440, height: 900 });
    await loginViaUi(page, owner.email, owner.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${funnel.id}/edit`);
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.getByRole('region', { name: 'Funnel map' });
    await map.waitFor();
    const status = page.getByTestId('map-status');
    const node = (title: string) => map.locator('.react-flow__node').filter({ hasText: title });
    const edgeLabel = (text: string) => map.locator('[data-testid^="map-edge-branch:"]').filter({ hasText: text });
    /** The whole map in view, well inside its edges (a drag near an edge pans the map under the pointer). */
    const fitAll = async () => {
      await map.getByRole('button', { name: 'Fit View' }).click();
      await page.waitForTimeout(300);
    };
    const pick = async (title: string) => {
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('checkbox', { name: `Select ${title}` }).check();
      await dialog.getByRole('button', { name: 'Add selected video' }).click();
      await dialog.waitFor({ state: 'detached' });
    };

    // A first video from the library, from the map's own toolbar.
    await page.getByRole('button', { name: 'Add video', exact: true }).click();
    await pick('Welcome');
    await node('Welcome').waitFor();
    await until(async () => (await status.innerText()).includes('Added Welcome to the map.'), 'the announcement');
    const welcome = (await node('Welcome').getAttribute('data-id'))!;

    // A branch drawn to empty space: pick a library video, which joins the funnel with a branch to it.
    const from = await centre(node('Welcome').locator('.react-flow__handle.source'));
    await drag(page, from, { x: from.x + 260, y: from.y + 40 });
    await page.getByRole('dialog', { name: "Branch from 'Welcome' to…" }).waitFor();
    await pick('Left path');
    await node('Left path').waitFor();
    await edgeLabel('Left path').waitFor();
    const left = (await node('Left path').getAttribute('data-id'))!;
    await until(async () => (await status.innerText()).includes('with a branch from Welcome to each'), 'the announcement');

    // A third video, then a branch drawn onto a video's body; then its end dragged to another video re-targets it.
    await page.getByRole('button', { name: 'Add video', exact: true }).click();
    await pick('Right path');
    await node('Right path').waitFor();
    // A video added out of sight is brought into view.
    await until(() => inView(map, node('Right path')), 'the new video in view');
    await fitAll();
    const right = (await node('Right path').getAttribute('data-id'))!;
    const before = await edgeIds(map);
    await drag(page, await centre(node('Welcome').locator('.react-flow__handle.source')), await centre(node('Left path')));
    await until(async () => (await edgeLabel('Left path').count()) === 2, 'a second branch to Left path');
    const second = (await edgeIds(map)).find((id) => !before.includes(id))!;
    const anchor = map.locator(`.react-flow__edge[data-id="${second}"] .react-flow__edgeupdater-target`);
    await drag(page, await centre(anchor), await centre(node('Right path')));
    await edgeLabel('Right path').waitFor();
    expect(await edgeLabel('Left path').count()).toBe(1);
    await until(async () => (await status.innerText()).includes('now leads to Right path'), 'the announcement');
    await shot(page, '226-map-editing-drawn');

    // Right path → Left path, drawn dot to dot (the whole map in view first: a drag near its edge pans it); deleted with the Delete key, and back with Ctrl+Z.
    await fitAll();
    await drag(
      page,
      await centre(node('Right path').locator('.react-flow__handle.source')),
      await centre(node('Left path').locator('.react-flow__handle.target')),
    );
    await until(async () => (await edgeLabel('Left path').count()) === 2, 'the branch from Right path');
    const rightToLeft = (await edgeIds(map)).find((id) => id.startsWith(`branch:${right}:`))!;
    await map.locator(`.react-flow__edge[data-id="${rightToLeft}"]`).focus();
    await page.keyboard.press('Delete');
    await until(async () => (await edgeIds(map)).every((id) => id !== rightToLeft), 'the branch deleted');
    await until(async () => (await status.innerText()).includes("Deleted branch 'Left path' from Right path"), 'the announcement');
    await map.locator('.react-flow__node').first().focus();
    await page.keyboard.press('Control+z');
    await until(async () => (await edgeIds(map)).includes(rightToLeft), 'the branch back after undo');

    // The only way to Right path: the visible Delete branch control asks first; Close keeps it.
    const toRight = second;
    await map.locator(`.react-flow__edge[data-id="${toRight}"]`).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Delete branch' }).click();
    const ask = page.getByRole('dialog', { name: 'Delete branch' });
    await expect(ask.innerText()).resolves.toContain("'Right path' is the last way to reach 'Right path'");
    await ask.getByRole('button', { name: 'Close', exact: true }).click();
    expect(await edgeIds(map)).toContain(toRight);

    // A drag of a node is one undo step; redo puts it back where it was dropped.
    await fitAll();
    const placed = await positionOf(node('Right path'));
    const grab = await centre(node('Right path').getByTestId(`map-node-title-${right}`));
    await drag(page, grab, { x: grab.x - 190, y: grab.y - 80 });
    const moved = await positionOf(node('Right path'));
    expect(moved.x).toBeLessThan(placed.x - 100);
    await page.keyboard.press('Control+z');
    await until(async () => (await positionOf(node('Right path'))).x === placed.x, 'the drag undone');
    await page.keyboard.press('Control+Shift+z');
    await until(async () => (await positionOf(node('Right path'))).x === moved.x, 'the drag redone');
    const places = { [welcome]: await positionOf(node('Welcome')), [left]: await positionOf(node('Left path')), [right]: moved };
    await shotAtBothWidths(page, '227-map-editing');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Saved, then read again: the places are kept.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('saved').waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Show map' }).click();
    await node('Right path').waitFor();
    for (const [id, at] of Object.entries(places)) expect(await positionOf(map.locator(`.react-flow__node[data-id="${id}"]`))).toEqual(at);
    const saved = (await owner.http.get(`/api/funnels/${funnel.id}`, owner.token)).body.data as {
      videos: Array<{ editor_id: string; map?: Point; elements: Array<{ data: { branches: Array<{ video: string; standard: { text: string } }> } }> }>;
    };
    const targets = Object.fromEntries(saved.videos.map((v) => [v.editor_id, v.elements.flatMap((e) => e.data.branches.map((b) => b.video)).sort()]));
    expect(targets).toEqual({ [welcome]: [left, right].sort(), [left]: [], [right]: [left] });
    expect(saved.videos.every((v) => v.map)).toBe(true);
    await context.close();

    // Every branch plays in the public player.
    const player = await launchBrowser();
    try {
      const play = async (buttons: string[], lands: string[]) => {
        const viewer = await player.newContext({ viewport: { width: 960, height: 540 } });
        await routeMediaHost(viewer);
        const p = await viewer.newPage();
        await p.goto(`${baseUrl()}/player/${funnel.identifier}`);
        for (const [i, text] of buttons.entries()) {
          const button = p.getByRole('button', { name: text });
          await button.waitFor({ state: 'visible', timeout: 20_000 });
          await button.click();
          await until(async () => (await currentEditor(p)) === lands[i], `${text} to lead to ${lands[i]}`);
        }
        await viewer.close();
      };
      await play(['Left path'], [left]);
      await play(['Right path', 'Left path'], [right, left]);
    } finally {
      await player.close();
    }
  });

  it('builds a two-video branch with the keyboard alone', async () => {
    const { id } = await publishFunnel(owner, { first: hostedMediaUrl('map-kb-1'), second: hostedMediaUrl('map-kb-2') }, (ids) => ({
      title: 'Keyboard map',
      videos: [
        { id: ids.first, editor_id: 'kb-first', elements: [] },
        { id: ids.second, editor_id: 'kb-second', elements: [] },
      ],
    }));
    const { context, page } = await openApp(browser);
    await routeMediaHost(context);
    await loginViaUi(page, owner.email, owner.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${id}/edit`);
    await page.getByRole('button', { name: 'Show map' }).focus();
    await page.keyboard.press('Enter');
    const map = page.getByRole('region', { name: 'Funnel map' });
    await map.locator('.react-flow__node').first().waitFor();

    // Tab from the header enters the map at its first video.
    await page.getByRole('button', { name: 'Preview' }).focus();
    await page.keyboard.press('Tab');
    await expectFocusOn(page, 'kb-first');
    // B: Branch to…, the funnel's other videos listed; Tab to one, Enter.
    await page.keyboard.press('b');
    const dialog = page.getByRole('dialog', { name: "Branch from 'first' to…" });
    await dialog.getByRole('list', { name: 'Funnel videos' }).waitFor();
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent ?? '')).includes('second')) break;
    }
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await until(async () => (await page.getByTestId('map-status').innerText()).includes('Added a branch from first to second.'), 'the announcement');
    // Focus is back on the video; Right goes to its new branch, named for a screen reader.
    await expectFocusOn(page, 'kb-first');
    await map.locator('.react-flow__edge[data-id^="branch:kb-first:"]').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-id')?.startsWith('branch:kb-first:'));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe("Branch 'second' from first to second");
    await shot(page, '228-map-keyboard-branch');
    // Enter opens it in the editor with its button selected.
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('video') === 'kb-first');
    await page.getByRole('option', { name: 'Branch 1', selected: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('video'));
    await page.keyboard.press('Control+s');
    await page.getByTestId('saved').waitFor();
    const saved = (await owner.http.get(`/api/funnels/${id}`, owner.token)).body.data as {
      videos: Array<{ editor_id: string; elements: Array<{ data: { branches: Array<{ video: string }> } }> }>;
    };
    expect(saved.videos[0]!.elements[0]!.data.branches.map((b) => b.video)).toEqual(['kb-second']);
    await context.close();
  });

  it("refuses a branch beyond the plan's limit on the map, drawn or by keyboard, with the plan's message and Upgrade Plan, and changes nothing", async () => {
    const admin = await adminSession();
    const limited = await subscribedUser(admin, (await freePlan(admin, { max_branch_per_funnel: 1 })).id);
    const { id } = await twoVideoFunnel(limited, 'lim', 'Limited map');
    const { context, page } = await openApp(browser);
    await routeMediaHost(context);
    await page.setViewportSize({ width: 1440, height: 900 });
    await loginViaUi(page, limited.email, limited.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${id}/edit`);
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.getByRole('region', { name: 'Funnel map' });
    const node = (editorId: string) => map.locator(`.react-flow__node[data-id="${editorId}"]`);
    await node('lim-second').waitFor();
    await map.getByRole('button', { name: 'Fit View' }).click();
    await page.waitForTimeout(300);
    const notice = page.locator('[data-modal="quick-notice"]');
    const edgesBefore = await edgeIds(map);

    // Drawn from the second video's dot onto the first: the plan allows one branch element per funnel.
    await drag(page, await centre(node('lim-second').locator('.react-flow__handle.source')), await centre(node('lim-first')));
    await notice.getByText(MESSAGES.branchLimitReached).waitFor();
    await notice.getByRole('button', { name: 'Upgrade Plan' }).waitFor();
    await shot(page, '229-map-branch-limit');
    // (The map is found by its role, which the open notice hides from assistive technology: checked once it is closed.)
    await notice.getByRole('button', { name: 'Close', exact: true }).click();
    await notice.waitFor({ state: 'detached' });
    expect(await edgeIds(map)).toEqual(edgesBefore);

    // The keyboard's way (B on a focused video, then a video from the list) meets the same refusal.
    await node('lim-second').focus();
    await page.keyboard.press('b');
    const dialog = page.getByRole('dialog', { name: "Branch from 'second' to…" });
    await dialog.getByRole('list', { name: 'Funnel videos' }).waitFor();
    await dialog.getByRole('button', { name: /first/ }).first().click();
    await notice.getByText(MESSAGES.branchLimitReached).waitFor();
    await notice.getByRole('button', { name: 'Close', exact: true }).click();
    await notice.waitFor({ state: 'detached' });
    expect(await edgeIds(map)).toEqual(edgesBefore);
    // Nothing to save: the editor holds no change.
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await context.close();
  });

  it('moves a video and draws a branch by touch, and the funnel keeps both', async () => {
    const { id } = await twoVideoFunnel(owner, 'touch', 'Touched map');
    const { context, page } = await openApp(browser, { viewport: { width: 1440, height: 900 }, hasTouch: true });
    await routeMediaHost(context);
    await loginViaUi(page, owner.email, owner.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${id}/edit`);
    await page.getByRole('button', { name: 'Show map' }).tap();
    const map = page.getByRole('region', { name: 'Funnel map' });
    const node = (editorId: string) => map.locator(`.react-flow__node[data-id="${editorId}"]`);
    const status = page.getByTestId('map-status');
    await node('touch-second').waitFor();
    await map.getByRole('button', { name: 'Fit View' }).tap();
    await page.waitForTimeout(300);
    expect(await edgeIds(map)).toHaveLength(1);

    // A finger moves the second video.
    const placed = await positionOf(node('touch-second'));
    const grip = await centre(node('touch-second'));
    await touchDrag(page, grip, { x: grip.x + 60, y: grip.y + 90 });
    await until(async () => (await positionOf(node('touch-second'))).y !== placed.y, 'the video moved');
    await until(async () => (await status.innerText()).includes('Moved second.'), 'the announcement');
    const moved = await positionOf(node('touch-second'));

    // A finger draws a second branch from the first video's dot down onto the moved video (the page
    // below could scroll: the finger draws instead).
    await touchDrag(page, await centre(node('touch-first').locator('.react-flow__handle.source')), await centre(node('touch-second')));
    await until(async () => (await edgeIds(map)).filter((e) => e.startsWith('branch:touch-first:')).length === 2, 'the drawn branch');
    await until(async () => (await status.innerText()).includes('Added a branch from first to second.'), 'the announcement');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await shot(page, '230-map-editing-touch');

    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    await page.getByTestId('saved').waitFor();
    const saved = (await owner.http.get(`/api/funnels/${id}`, owner.token)).body.data as {
      videos: Array<{ editor_id: string; map?: Point; elements: Array<{ data: { branches: Array<{ video: string }> } }> }>;
    };
    const byId = new Map(saved.videos.map((v) => [v.editor_id, v]));
    expect(byId.get('touch-second')?.map).toEqual(moved);
    expect(byId.get('touch-first')?.elements.flatMap((e) => e.data.branches.map((b) => b.video))).toEqual(['touch-second', 'touch-second']);
    await context.close();
  });
});
