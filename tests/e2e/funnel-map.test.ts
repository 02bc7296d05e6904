import type { Browser, Locator, Page } from 'playwright-core';
import { freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { branchEl, publishFunnel } from './support/funnels';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

const media = { url: hostedMediaUrl };

const button = (id: string, text: string, video: string) => ({ id, name: text, type: 'standard', onclick: 'branch', video, standard: { text } });
const SHOP = 'https://www.shop.example.com/deal';

/** What has focus: its flow id and its accessible name. */
const focused = (page: Page) =>
  page.evaluate(() => ({ id: document.activeElement?.getAttribute('data-id') ?? null, name: document.activeElement?.getAttribute('aria-label') ?? null }));

/** Waits for focus to be on the map element with that id (a busy machine renders late), else names what holds focus. */
const expectFocusOn = async (page: Page, id: string, when: string) => {
  const at = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return {
        id: el?.getAttribute('data-id') ?? null,
        what: el
          ? `${el.tagName.toLowerCase()}.${String(el.getAttribute('class'))} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').slice(0, 80)}"`
          : 'nothing',
        inDocument: el ? document.body.contains(el) : false,
      };
    });
  await page
    .waitForFunction((want) => document.activeElement?.getAttribute('data-id') === want, id, { timeout: 10_000 })
    .catch(async () => {
      throw new Error(`${when}, focus should be on ${id}; it is on ${JSON.stringify(await at())}`);
    });
};

/** Presses a key and waits for focus to land on the map element with that id. */
const pressAndFocus = async (page: Page, key: string, id: string) => {
  await page.keyboard.press(key);
  await expectFocusOn(page, id, `after ${key}`);
};

/** Whether the locator's box lies wholly inside the map's. */
const inView = async (map: Locator, target: Locator): Promise<boolean> => {
  const [outer, inner] = await Promise.all([map.boundingBox(), target.boundingBox()]);
  if (!outer || !inner) return false;
  return (
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5
  );
};

const until = async (fn: () => Promise<boolean>, what: string, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describeBrowser('funnel map in the editor', () => {
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

  it('shows the funnel as a graph, flags a video nothing reaches, and opens the editor at a clicked node', async () => {
    const { id } = await publishFunnel(
      owner,
      { intro: media.url('map-intro'), offer: media.url('map-offer'), story: media.url('map-story'), lost: media.url('map-lost') },
      (ids) => ({
        title: 'Map funnel',
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
                  button('to-offer', 'See the offer', 'offer'),
                  button('to-story', 'Our story', 'story'),
                  { id: 'to-shop', name: 'Shop', type: 'standard', onclick: 'url', externalLink: SHOP, standard: { text: 'Visit the shop' } },
                ],
                { inaction: 'to-story' },
              ),
            ],
          },
          { id: ids.offer, editor_id: 'offer', elements: [] },
          {
            id: ids.story,
            editor_id: 'story',
            elements: [
              branchEl('jump', 'story', 1, 6, [
                button('story-offer', 'Take me to the offer', 'offer'),
                { id: 'again', name: 'Again', type: 'standard', onclick: 'timestamp', timestamp: { seconds: 3 }, standard: { text: 'Watch again' } },
              ]),
            ],
          },
          { id: ids.lost, editor_id: 'lost', elements: [] },
        ],
      }),
    );
    const { context, page } = await openApp(browser);
    await routeMediaHost(context);
    await loginViaUi(page, owner.email, owner.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${id}/edit`);
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.getByRole('region', { name: 'Funnel map' });
    await map.waitFor();

    // Nodes: one per video, buttons named by what they show, flags first.
    const node = (name: string | RegExp) => map.getByRole('button', { name });
    await node(/^Start intro/).waitFor();
    await node(/^Not reachable lost/).waitFor();
    await expect(map.getByTestId('map-node-lost').innerText()).resolves.toContain('Not reachable');
    await expect(map.getByTestId('map-node-intro').innerText()).resolves.toContain('Start');
    await expect(map.getByTestId('map-node-offer').innerText()).resolves.not.toContain('Not reachable');
    // The timestamp jump is noted on its video.
    await expect(map.getByTestId('map-node-story').innerText()).resolves.toContain('Watch again ↺ 0:03');

    // Edges: every branch button and the inaction default, labelled.
    await expect(map.getByTestId('map-edge-branch:intro:to-offer').innerText()).resolves.toBe('See the offer');
    await expect(map.getByTestId('map-edge-branch:intro:to-story').innerText()).resolves.toBe('Our story');
    await expect(map.getByTestId('map-edge-inaction:intro:ask').innerText()).resolves.toBe('No choice: Our story');
    await expect(map.getByTestId('map-edge-branch:story:story-offer').innerText()).resolves.toBe('Take me to the offer');
    // A URL button: an edge to a 'link out' node that shows the URL's host.
    await expect(map.getByTestId('map-edge-branch:intro:to-shop').innerText()).resolves.toBe('Visit the shop');
    const shop = map.getByRole('group', { name: `Link out of the funnel to shop.example.com (${SHOP})` });
    await expect(shop.innerText()).resolves.toMatch(/^Link out\s+shop\.example\.com\s+https:\/\/www\.shop\.example\.com\/deal$/);
    await shot(page, '220-funnel-map-editor');

    // Keyboard: Tab from the header enters the map at its first edge, named with its button, source and target.
    await page.getByRole('button', { name: 'Preview' }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual({ id: 'branch:intro:to-offer', name: "Branch 'See the offer' from intro to offer" });
    // Down and Up walk a video's edges; the link out and the inaction default are among them.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toEqual({ id: 'branch:intro:to-shop', name: "Branch 'Visit the shop' from intro to a link out to shop.example.com" });
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toEqual({ id: 'inaction:intro:ask', name: "Default when no choice is made, 'Our story' from intro to story" });
    await shot(page, '224-funnel-map-edge-focused');
    await expectFocusOn(page, 'inaction:intro:ask', 'after the screenshot');
    // Right goes to where the edge leads, Left from a video to an edge into it.
    await pressAndFocus(page, 'ArrowRight', 'story');
    await pressAndFocus(page, 'ArrowLeft', 'branch:intro:to-story');
    // Enter on an edge opens its video in the editor with its button selected.
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('video') === 'intro');
    await page.getByRole('option', { name: 'Our story', selected: true }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL((url) => !url.searchParams.has('video'));

    // Keyboard: Tab reaches a node, Enter opens it in the editor.
    await node(/^offer/).focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-id'))).toBe('offer');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('video') === 'offer');
    await page.getByRole('dialog').first().waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('video'));

    // A double-click on a node opens that video's timeline (a click only selects it for the map's toolbar; focus first pans it back into view: the map opened at a readable zoom, wider than the screen).
    await node(/^Not reachable lost/).focus();
    await until(() => inView(map, map.getByTestId('map-node-lost')), 'the lost video in view');
    await node(/^Not reachable lost/).dblclick();
    await page.waitForURL((url) => url.searchParams.get('video') === 'lost');
    await page.getByRole('dialog').first().waitFor();
    await shot(page, '221-funnel-map-opened-video');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL((url) => !url.searchParams.has('video'));

    // A removed video: the branches that led to it are flagged on the map until they get a new target.
    await page.getByRole('button', { name: 'Remove offer' }).click();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(map.getByTestId('map-node-missing:branch:intro:to-offer').innerText()).resolves.toContain('Removed video');
    await expect(map.getByTestId('map-node-missing:branch:story:story-offer').innerText()).resolves.toContain('Removed video');
    expect(await map.getByRole('group', { name: /^Removed video/ }).count()).toBe(2);
    await shot(page, '223-funnel-map-broken-branches');
    await context.close();
  });

  it('fits a 50-video funnel without overlapping labels, and links to the analytics screen', async () => {
    const { id } = await publishFunnel(owner, { clip: media.url('map-fifty') }, (ids) => ({
      title: 'Fifty videos',
      videos: Array.from({ length: 50 }, (_, i) => {
        const children = [1, 2, 3].map((k) => i * 3 + k).filter((c) => c < 50);
        return {
          id: ids.clip,
          editor_id: `v${i}`,
          elements: children.length
            ? [
                branchEl(
                  `e${i}`,
                  `v${i}`,
                  1,
                  6,
                  children.map((c, k) => button(`b${i}-${k}`, `Option ${k + 1} to step ${c}`, `v${c}`)),
                ),
              ]
            : [],
        };
      }),
    }));
    const { context, page } = await openApp(browser);
    await routeMediaHost(context);
    await loginViaUi(page, owner.email, owner.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${id}/edit`);
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.getByRole('region', { name: 'Funnel map' });
    await map.locator('.react-flow__node').first().waitFor();
    expect(await map.locator('.react-flow__node').count()).toBe(50);
    expect(await map.locator('[data-testid^="map-edge-branch:"]').count()).toBe(49);
    // Drawn labels: none overlaps another or a node, as the browser places them.
    const boxes = await map.locator('.react-flow__node, [data-testid^="map-edge-branch:"]').evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { id: el.getAttribute('data-testid') ?? el.getAttribute('data-id'), x: r.x, y: r.y, w: r.width, h: r.height };
      }),
    );
    const clashes: string[] = [];
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.x + 0.5 < b.x + b.w && b.x + 0.5 < a.x + a.w && a.y + 0.5 < b.y + b.h && b.y + 0.5 < a.y + a.h) clashes.push(`${a.id} × ${b.id}`);
      }
    }
    expect(clashes).toEqual([]);

    // It opens at a readable zoom on the start video (titles at 10 px or more), with an overview to pan by.
    const zoom = await map.locator('.react-flow__viewport').evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
    expect(zoom).toBeGreaterThanOrEqual(0.8);
    const title = map.getByTestId('map-node-title-v0');
    expect(await title.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(13);
    expect((await title.boundingBox())!.height).toBeGreaterThanOrEqual(10);
    expect(await inView(map, map.getByTestId('map-node-v0'))).toBe(true);
    await map.getByRole('img', { name: 'Overview of the whole map' }).waitFor();
    await shot(page, '222-funnel-map-fifty-videos');

    // A far video, off screen at first, pans into view when it takes focus; so does an edge reached from it by keyboard.
    const far = map.locator('.react-flow__node[data-id="v49"]');
    expect(await inView(map, far)).toBe(false);
    await far.focus();
    await until(() => inView(map, far), 'the focused video in view');
    await page.keyboard.press('ArrowLeft');
    expect(await focused(page)).toEqual({ id: 'branch:v16:b16-0', name: "Branch 'Option 1 to step 49' from clip to clip" });
    await until(() => inView(map, map.getByTestId('map-edge-branch:v16:b16-0')), 'the focused edge label in view');
    await shot(page, '225-funnel-map-far-video-focused');

    await page.getByRole('link', { name: 'Analytics' }).click();
    await waitForPath(page, `/funnels/${id}/analytics`);
    await context.close();
  });
});
