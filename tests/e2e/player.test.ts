import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { baseUrl } from '../api/support/http';
import { addVideo, createFunnel, freePlan, subscribedUser, twoVideoDocument } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { shot } from './support/app';
import { describeBrowser, launchBrowser } from './support/browser';
import { branchEl, publishFunnel, textEl } from './support/funnels';
import { startMediaServer, type MediaServer } from './support/media-server';
import { useApiSuite } from '../api/support/suite';

const suite = useApiSuite();
let owner: Session;
let media: MediaServer;

beforeAll(async () => {
  const admin = await adminSession();
  owner = await subscribedUser(admin, (await freePlan(admin)).id);
  media = await startMediaServer();
});
afterAll(async () => {
  await media?.close();
});

const XSS_TITLE = 'Hello </script><script>window.__pwned=1</script><b>viewer</b>';

describe('GET /player/{reference}', () => {
  it('is a small HTML page with the payload inlined safely, the app name and favicon, the bundle, and frameable from anywhere', async () => {
    const { reference } = await publishFunnel(owner, { a: media.url('page-a') }, (ids) => ({
      title: '<img src=x onerror=alert(1)>',
      videos: [{ id: ids.a, editor_id: 'intro', elements: [textEl('t1', 'intro', 0, 2, XSS_TITLE)] }],
    }));
    const res = await fetch(`${baseUrl()}/player/${reference}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/frame-ancestors \*/);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('etag')).toMatch(/^".+"$/);
    const html = await res.text();
    expect(html).toMatch(/<script type="module" src="\/build\/player\/assets\/main-[\w-]+\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/build\/player\/assets\/main-[\w-]+\.css">/);
    expect(html).toMatch(/<link rel="icon" href="[^"]+">/);
    // Funnel text can neither close the JSON script nor open a tag.
    expect(html).not.toContain('</script><script>window.__pwned');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    const json = /<script id="branchify-funnel" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
    expect(json).toBeTruthy();
    const payload = JSON.parse(json!);
    expect(payload.identifier).toBe(reference);
    expect(payload.videos[0].elements[0].data.title).toBe(XSS_TITLE);
    expect(payload.app.name).toBeTruthy();
    expect(html).toContain(`<meta name="application-name" content="${payload.app.name}">`);
    expect(html.length).toBeLessThan(20_000);
    // The first video, a direct file, starts loading with the page; the player adopts the element.
    expect(html).toContain(`<video id="branchify-first-video" data-editor-id="intro" src="${media.url('page-a')}" preload="auto" `);
    expect(html).toMatch(/<video id="branchify-first-video"[^>]* hidden><\/video>/);

    const again = await fetch(`${baseUrl()}/player/${reference}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('carries no video element when the first video is embedded from a provider', async () => {
    const a = await addVideo(owner, { title: 'Intro' });
    const b = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Second' });
    const funnel = await createFunnel(owner);
    expect((await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), owner.token)).status).toBe(200);
    const html = await (await fetch(`${baseUrl()}/player/${funnel.identifier}`)).text();
    expect(html).toContain('id="branchify-funnel"');
    expect(html).not.toContain('<video');
  });

  it('answers an unknown funnel with a clear 404 page, frameable too', async () => {
    for (const path of ['/player/NoSuchFunnelReference1', '/player/%E0%A4%A', '/player/a/b/c']) {
      const res = await fetch(`${baseUrl()}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors \*/);
      expect(res.headers.get('x-frame-options')).toBeNull();
      const html = await res.text();
      // The message once, its first sentence as the heading.
      const text = /<main[^>]*>([\s\S]*)<\/main>/
        .exec(html)![1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      expect(text).toBe(MESSAGES.funnelUnavailable);
      expect(html).toMatch(/<h1>This funnel is not available\.<\/h1>/);
    }
  });
});

// --- in the browser ---------------------------------------------------------------------------

const currentEditor = (page: Page) => page.locator('.bf-slot.bf-slot-current').getAttribute('data-editor-id');
const videoTime = (page: Page) => page.locator('.bf-slot.bf-slot-current video').evaluate((v: HTMLVideoElement) => v.currentTime);
const videoPaused = (page: Page) => page.locator('.bf-slot.bf-slot-current video').evaluate((v: HTMLVideoElement) => v.paused);
const waitFor = async (fn: () => Promise<boolean>, timeoutMs = 15_000, what = 'condition') => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describeBrowser('the player in Chromium (generic provider, bundled sample video)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (reference: string, viewport = { width: 960, height: 540 }, device: Pick<BrowserContextOptions, 'hasTouch' | 'isMobile'> = {}) => {
    const context = await browser.newContext({ viewport, ...device });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${baseUrl()}/player/${reference}`);
    return { context, page, errors };
  };

  it('plays the funnel: shows and hides elements on time, branches on a keyboard choice, and records the view and the interaction', async () => {
    const { id, reference } = await publishFunnel(owner, { a: media.url('play-a'), b: media.url('play-b') }, (ids) => ({
      videos: [
        {
          id: ids.a,
          editor_id: 'intro',
          elements: [
            textEl('t-hello', 'intro', 0, 2, XSS_TITLE),
            branchEl(
              'choice',
              'intro',
              3,
              10,
              [{ id: 'go', name: 'Branch 1', type: 'standard', onclick: 'branch', video: 'second', standard: { text: 'Go on' } }],
              { animation: 'fade-in-and-out' },
            ),
          ],
        },
        { id: ids.b, editor_id: 'second', elements: [textEl('t-second', 'second', 0, 6, 'Second video')] },
      ],
    }));
    const { context, page, errors } = await open(reference);

    // The text element, as text: the markup in it is not markup.
    const hello = page.locator('[data-element-id="t-hello"]');
    await hello.waitFor({ state: 'visible', timeout: 15_000 });
    // The page's own element plays the first video: adopted into the stage, not loaded twice.
    expect(
      await page.evaluate(() => ({
        left: document.getElementById('branchify-first-video') !== null,
        adopted: document.querySelectorAll('.bf-slot video[data-editor-id="intro"]').length,
        requests: performance.getEntriesByType('resource').filter((e) => e.name.includes('play-a')).length,
      })),
    ).toEqual({ left: false, adopted: 1, requests: 1 });
    expect(await hello.innerText()).toBe(XSS_TITLE);
    expect(await hello.locator('b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('.bf-slot-current video').getAttribute('playsinline')).not.toBeNull();

    // Hidden after 2 s: first fading, then removed.
    await hello.waitFor({ state: 'detached', timeout: 8_000 });
    expect(await videoTime(page)).toBeGreaterThan(1.9);

    // The branch appears at 3 s, is announced, and is reachable by keyboard.
    const go = page.getByRole('button', { name: 'Go on' });
    await go.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await videoTime(page)).toBeGreaterThanOrEqual(2.9);
    await waitFor(async () => (await page.locator('[role="status"]').innerText()).includes('Where next?'), 3000, 'announcement');
    expect(await page.locator('[role="status"]').innerText()).toContain('Go on');
    await go.focus();
    await page.keyboard.press('Enter');

    // The second video plays from its start.
    await waitFor(async () => (await currentEditor(page)) === 'second', 5000, 'the second video');
    await page.locator('[data-element-id="t-second"]').waitFor({ state: 'visible', timeout: 5000 });
    await waitFor(async () => (await videoTime(page)) > 0.5 && !(await videoPaused(page)), 8000, 'playback of the second video');
    // A little more of it watched, so the position sent on leaving is a real one.
    await waitFor(async () => (await videoTime(page)) > 1.7, 8000, 'more of the second video');
    const position = await videoTime(page);

    // Leaving the page sends the last position with sendBeacon.
    await page.goto('about:blank');
    await context.close();
    const funnelId = id;
    await waitFor(
      async () => {
        const view = await suite.db('branchify_funnel_views').where({ funnel_id: funnelId }).first();
        return Boolean(view && view.editor_id === 'second' && Number(view.last_watch_time) > 0);
      },
      8000,
      'the view row',
    );
    const view = await suite.db('branchify_funnel_views').where({ funnel_id: funnelId }).first();
    expect(Number(view.last_watch_time)).toBeGreaterThan(position - 1.5);
    await waitFor(async () => (await suite.db('branchify_funnel_interactions').where({ funnel_id: funnelId })).length > 0, 8000, 'the interaction row');
    const interactions = await suite.db('branchify_funnel_interactions').where({ funnel_id: funnelId });
    expect(interactions).toHaveLength(1);
    expect(interactions[0]).toMatchObject({ video_id: 'intro', node_id: 'go', connected_node: 'second', type: 'branch', view_id: view.event_id });
    expect(Number(interactions[0].player_time)).toBeGreaterThanOrEqual(3);
    expect(errors).toEqual([]);
  });

  it('pauses while waiting for a choice and takes the inaction path when the wait ends', async () => {
    const { id: funnelId, reference } = await publishFunnel(owner, { a: media.url('wait-a'), b: media.url('wait-b') }, (ids) => ({
      videos: [
        {
          id: ids.a,
          editor_id: 'intro',
          elements: [
            branchEl(
              'ask',
              'intro',
              1,
              8,
              [{ id: 'to-b', name: 'Branch 1', type: 'standard', onclick: 'branch', video: 'second', standard: { text: 'Next please' } }],
              {
                pauseVideo: { enabled: true, duration: 10 },
                inaction: 'to-b',
              },
            ),
          ],
        },
        { id: ids.b, editor_id: 'second', elements: [] },
      ],
    }));
    const { context, page } = await open(reference);
    await page.getByRole('button', { name: 'Next please' }).waitFor({ state: 'visible', timeout: 15_000 });
    await waitFor(() => videoPaused(page), 3000, 'the pause');
    const pausedAt = await videoTime(page);
    expect(pausedAt).toBeGreaterThanOrEqual(0.9);
    expect(pausedAt).toBeLessThan(2);
    const waitStarted = Date.now();
    // Three seconds of nothing happening (the wait is the point): the video stays paused, on the same video.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await videoTime(page)).toBeCloseTo(pausedAt, 1);
    expect(await currentEditor(page)).toBe('intro');
    // The 10 s wait ends: the inaction is the branch to the second video, which autoplays.
    await waitFor(async () => (await currentEditor(page)) === 'second', 15_000, 'the inaction branch');
    expect(Date.now() - waitStarted).toBeGreaterThan(6000);
    await waitFor(async () => (await videoTime(page)) > 0.3, 8000, 'the second video playing');
    await page.goto('about:blank');
    await context.close();
    // Recorded as the branch the default took, by inaction (the funnel map counts it; clicks do not).
    await waitFor(async () => (await suite.db('branchify_funnel_interactions').where({ funnel_id: funnelId })).length > 0, 8000, 'the interaction row');
    const interactions = await suite.db('branchify_funnel_interactions').where({ funnel_id: funnelId });
    expect(interactions).toHaveLength(1);
    expect(interactions[0]).toMatchObject({ video_id: 'intro', node_id: 'to-b', connected_node: 'second', type: 'inaction' });
  });

  it('the skip button dismisses a waiting element and playback carries on', async () => {
    const { reference } = await publishFunnel(owner, { a: media.url('skip-a'), b: media.url('skip-b') }, (ids) => ({
      videos: [
        {
          id: ids.a,
          editor_id: 'intro',
          elements: [
            branchEl(
              'ask',
              'intro',
              1,
              8,
              [{ id: 'to-b', name: 'Branch 1', type: 'standard', onclick: 'branch', video: 'second', standard: { text: 'Second' } }],
              {
                pauseVideo: { enabled: true, duration: 10 },
                inaction: 'to-b',
                showSkip: { show: true, text: 'Skip this' },
              },
            ),
          ],
        },
        { id: ids.b, editor_id: 'second', elements: [] },
      ],
    }));
    const { context, page } = await open(reference);
    const skip = page.getByRole('button', { name: 'Skip this' });
    await skip.waitFor({ state: 'visible', timeout: 15_000 });
    await waitFor(() => videoPaused(page), 3000, 'the pause');
    const pausedAt = await videoTime(page);
    await skip.click();
    await page.locator('[data-element-id="ask"]').waitFor({ state: 'detached', timeout: 3000 });
    await waitFor(async () => (await videoTime(page)) > pausedAt + 1, 5000, 'playback after skip');
    expect(await currentEditor(page)).toBe('intro');
    await context.close();
  });

  it('an Open URL button opens its page in a new tab and leaves the other choices in place', async () => {
    const { reference } = await publishFunnel(owner, { a: media.url('link-a'), b: media.url('link-b') }, (ids) => ({
      videos: [
        {
          id: ids.a,
          editor_id: 'intro',
          elements: [
            branchEl('choice', 'intro', 1, 10, [
              {
                id: 'go',
                name: 'Branch 1',
                type: 'standard',
                onclick: 'branch',
                video: 'second',
                standard: { text: 'Watch more', position: { top: 60, left: 0 } },
              },
              {
                id: 'buy',
                name: 'Branch 2',
                type: 'standard',
                onclick: 'url',
                externalLink: 'https://shop.example.test/buy',
                standard: { text: 'Buy now', position: { top: 120, left: 0 } },
              },
            ]),
          ],
        },
        { id: ids.b, editor_id: 'second', elements: [] },
      ],
    }));
    const { context, page, errors } = await open(reference);
    await context.route('https://shop.example.test/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Shop</title><h1>Shop</h1>' }),
    );
    const more = page.getByRole('button', { name: 'Watch more' });
    const buy = page.getByRole('button', { name: 'Buy now' });
    await buy.waitFor({ state: 'visible', timeout: 15_000 });
    const [tab] = await Promise.all([context.waitForEvent('page'), buy.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe('https://shop.example.test/buy');
    // Back on the player: both choices are still there, and stay there as the video plays on.
    await page.bringToFront();
    const backAt = await videoTime(page);
    await waitFor(async () => (await videoTime(page)) > backAt + 1, 8000, 'the video playing on');
    expect(await more.isVisible()).toBe(true);
    expect(await buy.isVisible()).toBe(true);
    await shot(page, 'player-open-url-keeps-choices');
    // Seeking back within the element's window shows them too.
    await page.getByRole('slider', { name: 'Seek' }).fill('2');
    await waitFor(async () => (await videoTime(page)) < 3, 3000, 'the seek back');
    expect(await more.isVisible()).toBe(true);
    expect(await buy.isVisible()).toBe(true);
    // And the viewer can still take the other branch.
    await more.click();
    await waitFor(async () => (await currentEditor(page)) === 'second', 5000, 'the second video');
    await tab.close();
    await context.close();
    expect(errors).toEqual([]);
  });

  it('offers to resume after a reload and continues from the last position', async () => {
    const { reference } = await publishFunnel(owner, { a: media.url('resume-a'), b: media.url('resume-b') }, (ids) => ({
      settings: { enable_resume_play: true },
      videos: [
        {
          id: ids.a,
          editor_id: 'intro',
          elements: [
            branchEl('choice', 'intro', 1, 11, [
              { id: 'go', name: 'Branch 1', type: 'standard', onclick: 'branch', video: 'second', standard: { text: 'To the second' } },
            ]),
          ],
        },
        { id: ids.b, editor_id: 'second', elements: [] },
      ],
    }));
    const { context, page } = await open(reference);
    await page.getByRole('button', { name: 'To the second' }).click({ timeout: 15_000 });
    await waitFor(async () => (await currentEditor(page)) === 'second' && (await videoTime(page)) > 3, 10_000, 'the second video at 3 s');
    // First visit: no modal was offered.
    await page.reload(); // pagehide: the position goes out with sendBeacon
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await dialog.innerText()).toContain('Do you want to resume?');
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await waitFor(async () => (await currentEditor(page)) === 'second', 5000, 'the resumed video');
    await waitFor(async () => !(await videoPaused(page)), 5000, 'playing after resume');
    expect(await videoTime(page)).toBeGreaterThan(2.5);
    // The viewer token is kept per funnel.
    expect(await page.evaluate((ref) => localStorage.getItem(`branchify:viewer:${ref}`), reference)).toMatch(/^[A-Za-z0-9_-]{16,64}$/);

    // "No" starts from the beginning of the funnel.
    await page.reload();
    await page.getByRole('dialog').getByRole('button', { name: 'No' }).click({ timeout: 10_000 });
    await waitFor(async () => (await currentEditor(page)) === 'intro' && !(await videoPaused(page)), 5000, 'the root video');
    expect(await videoTime(page)).toBeLessThan(3);
    await context.close();
  });

  it('fits a phone-sized screen, keeps controls usable and fullscreens the container (never the video)', async () => {
    const { reference } = await publishFunnel(owner, { a: media.url('phone-a') }, (ids) => ({
      videos: [
        {
          id: ids.a,
          editor_id: 'intro',
          elements: [
            branchEl('c', 'intro', 0, 11, [
              { id: 'u', name: 'Branch 1', type: 'standard', onclick: 'url', externalLink: 'https://example.com/', standard: { text: 'Visit' } },
            ]),
          ],
        },
      ],
    }));
    const { context, page } = await open(reference, { width: 375, height: 667 });
    const player = page.locator('.bf-player');
    await page.getByRole('button', { name: 'Visit' }).waitFor({ state: 'visible', timeout: 15_000 });
    const box = (await player.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(375);
    expect(Math.round((box.width / box.height) * 9)).toBe(16);
    const visit = (await page.getByRole('button', { name: 'Visit' }).boundingBox())!;
    expect(visit.x + visit.width).toBeLessThanOrEqual(box.x + box.width + 1);
    // Seek step 10 s from the keyboard, then fullscreen on the container. The controls hide while
    // playing and take no clicks until the pointer comes over the player.
    await player.hover();
    await page.getByRole('button', { name: 'Pause' }).click();
    await player.focus();
    await page.keyboard.press('ArrowRight');
    await waitFor(async () => (await videoTime(page)) >= 9.5, 3000, 'the 10 s seek');
    // The seek bar's thumb sits at the current time (not snapped to the 10 s step), and its own
    // arrow keys move by the seek step too.
    const seek = page.getByRole('slider', { name: 'Seek' });
    await seek.focus();
    await page.keyboard.press('ArrowLeft');
    await waitFor(async () => (await videoTime(page)) < 5, 3000, 'the seek bar step back');
    await seek.fill('3.5');
    await waitFor(async () => Math.abs((await videoTime(page)) - 3.5) < 0.5, 3000, 'the seek to 3.5 s');
    expect(await seek.evaluate((el: HTMLInputElement) => el.valueAsNumber)).toBeCloseTo(3.5, 0);
    await page.getByRole('button', { name: 'Fullscreen' }).click();
    await waitFor(() => page.evaluate(() => document.fullscreenElement?.classList.contains('bf-player') ?? false), 3000, 'fullscreen');
    await context.close();
  });
});

// --- the control bar and the choices, with touch and with the mouse ---------------------------

/** The demo funnel's intro element (database/seed/demo-funnel.json): two buttons low on the video. */
const demoChoice = (buttonsTop?: number) => {
  const file = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'database', 'seed', 'demo-funnel.json'), 'utf8'));
  const element = structuredClone(file.funnel.videos.find((v: { editor_id: string }) => v.editor_id === 'intro').elements[0]);
  if (buttonsTop !== undefined) for (const b of element.data.branches) b.standard.position.top = buttonsTop;
  return element;
};

/** Where the control bar is and whether it shows, and each visible choice with what takes taps around it. */
const barAndChoices = (page: Page) =>
  page.evaluate(() => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const bar = document.querySelector('.bf-controls')!;
    const style = getComputedStyle(bar);
    const choices = Array.from(document.querySelectorAll('.bf-element:not(.bf-fading) .bf-branch')).map((b) => {
      const r = box(b);
      const [x, y] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      // What a tap 22 px from the button's centre, each way, lands on.
      const around = (
        [
          [-22, 0],
          [22, 0],
          [0, -22],
          [0, 22],
        ] as const
      ).map(([dx, dy]) => {
        const hit = document.elementFromPoint(x + dx, y + dy);
        return hit === b ? 'the button' : (hit?.className.toString() ?? 'nothing');
      });
      return { name: (b.textContent ?? '').trim(), ...r, around };
    });
    return { bar: box(bar), opacity: Number(style.opacity), pointerEvents: style.pointerEvents, choices };
  });

type Rect = { left: number; top: number; right: number; bottom: number };
const intersects = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describeBrowser('the player: hidden controls take no taps, choices stay clear of the bar and big enough to tap', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const publishDemo = (key: string, buttonsTop?: number) =>
    publishFunnel(owner, { a: media.url(`${key}-a`), b: media.url(`${key}-b`), c: media.url(`${key}-c`) }, (ids) => ({
      videos: [
        { id: ids.a, editor_id: 'intro', elements: [demoChoice(buttonsTop)] },
        { id: ids.b, editor_id: 'tour', elements: [] },
        { id: ids.c, editor_id: 'plans', elements: [] },
      ],
    }));

  const openPlayer = async (
    reference: string,
    viewport: { width: number; height: number },
    device: Pick<BrowserContextOptions, 'hasTouch' | 'isMobile'> = {},
  ) => {
    const context = await browser.newContext({ viewport, ...device });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${baseUrl()}/player/${reference}`);
    await page.getByRole('button', { name: 'See the plans' }).waitFor({ state: 'visible', timeout: 15_000 });
    // The entrance animation has run: the buttons sit where they stay.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
    return { context, page, errors };
  };

  /** The middle of the lower half of a button: where the hidden bar used to take the tap. */
  const lowerMiddle = (c: Rect) => ({ x: (c.left + c.right) / 2, y: c.top + (c.bottom - c.top) * 0.75 });

  const branchRecorded = (funnelId: number, nodeId: string) =>
    waitFor(
      async () => (await suite.db('branchify_funnel_interactions').where({ funnel_id: funnelId, node_id: nodeId, type: 'branch' })).length > 0,
      8000,
      `the ${nodeId} branch recorded`,
    );

  it('on a 390 px touch screen: a tap on a branch button takes the branch, hit areas are 44 px or more, the bar never covers a choice', async () => {
    const { id: funnelId, reference } = await publishDemo('touch');
    const { context, page, errors } = await openPlayer(reference, { width: 390, height: 844 }, { hasTouch: true, isMobile: true });
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches && matchMedia('(hover: none)').matches)).toBe(true);
    expect(await videoPaused(page)).toBe(false);

    // Playing, untouched: the controls are hidden and take no taps.
    await waitFor(async () => (await barAndChoices(page)).opacity === 0, 3000, 'the controls to hide');
    const hidden = await barAndChoices(page);
    expect(hidden.pointerEvents).toBe('none');
    expect(hidden.choices.map((c) => c.name)).toEqual(['Show me around', 'See the plans']);
    for (const c of hidden.choices) {
      // Drawn smaller than a fingertip, tappable over 44 px or more each way, and clear of the bar.
      expect(c.bottom - c.top).toBeLessThan(44);
      expect({ name: c.name, around: c.around }).toEqual({ name: c.name, around: ['the button', 'the button', 'the button', 'the button'] });
      expect(intersects(c, hidden.bar)).toBe(false);
      // Its hit area too: the tap 22 px below its centre is not the bar's.
      expect((c.top + c.bottom) / 2 + 22).toBeLessThanOrEqual(hidden.bar.top);
    }
    await shot(page, 'player-touch-390-choices');

    // The tap: the middle of the lower half of "See the plans", the controls hidden.
    const plans = hidden.choices[1];
    await page.touchscreen.tap(lowerMiddle(plans).x, lowerMiddle(plans).y);
    await waitFor(async () => (await currentEditor(page)) === 'plans', 5000, 'the plans video');
    await branchRecorded(funnelId, 'demo-to-plans');

    // Again from the start: a tap on the video outside the choices shows the controls and does not pause.
    await page.reload();
    await page.getByRole('button', { name: 'Show me around' }).waitFor({ state: 'visible', timeout: 15_000 });
    await waitFor(async () => (await barAndChoices(page)).opacity === 0, 3000, 'the controls to hide');
    const player = (await page.locator('.bf-player').boundingBox())!;
    await page.touchscreen.tap(player.x + 30, player.y + 30);
    await waitFor(async () => (await barAndChoices(page)).opacity === 1, 3000, 'the controls to show');
    expect(await videoPaused(page)).toBe(false);
    const shown = await barAndChoices(page);
    expect(shown.pointerEvents).toBe('auto');
    for (const c of shown.choices) expect(intersects(c, shown.bar)).toBe(false);
    await shot(page, 'player-touch-390-controls-shown');
    // With the controls up, a choice still takes its tap.
    const tour = shown.choices[0];
    await page.touchscreen.tap(lowerMiddle(tour).x, lowerMiddle(tour).y);
    await waitFor(async () => (await currentEditor(page)) === 'tour', 5000, 'the tour video');
    await branchRecorded(funnelId, 'demo-to-tour');
    // A few seconds after the tap the controls hide again over the playing video.
    await waitFor(async () => (await barAndChoices(page)).opacity === 0 && !(await videoPaused(page)), 6000, 'the controls to hide again');
    await context.close();
    expect(errors).toEqual([]);
  });

  it('on a 390 px touch screen small buttons of every uncut shape and image buttons take taps over 44 px or more', async () => {
    const small = (id: string, left: number, shape: string) => ({
      id,
      name: id,
      type: 'standard',
      onclick: 'url',
      externalLink: 'https://example.com/',
      standard: { text: id, shape, fontSize: 0.75, position: { top: 150, left } },
    });
    const { reference } = await publishFunnel(owner, { a: media.url('shapes-a') }, (ids) => ({
      videos: [
        {
          id: ids.a,
          editor_id: 'intro',
          elements: [
            {
              ...branchEl('shapes', 'intro', 0, 11, [
                // (Hexagons and chevrons are cut with clip-path, which cuts their hit area too.)
                small('Box', 0, 'rectangle'),
                small('Tip', 130, 'comment'),
                small('Note', 260, 'stickynote'),
                small('Dot', 380, 'circle'),
                {
                  id: 'Pic',
                  name: 'Pic',
                  type: 'image',
                  onclick: 'url',
                  externalLink: 'https://example.com/',
                  image: { width: 40, height: 30, position: { top: 150, left: 480 } },
                },
              ]),
              position: { top: 0, left: 20 },
            },
          ],
        },
      ],
    }));
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/player/${reference}`);
    await page.getByRole('button', { name: 'Pic' }).waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
    const { choices } = await barAndChoices(page);
    expect(choices.map((c) => c.name)).toEqual(['Box', 'Tip', 'Note', 'Dot', 'Pic']);
    for (const c of choices) {
      expect(Math.min(c.right - c.left, c.bottom - c.top)).toBeLessThan(44);
      expect({ name: c.name, around: c.around }).toEqual({ name: c.name, around: ['the button', 'the button', 'the button', 'the button'] });
    }
    await shot(page, 'player-touch-390-button-shapes');
    await context.close();
  });

  it('at 1440 px with the mouse and the keyboard: the shown bar never covers a choice, even one placed at the very bottom', async () => {
    // The demo's buttons moved to the bottom edge, where the bar would lie over them.
    const { id: funnelId, reference } = await publishDemo('mouse', 318);
    const { context, page, errors } = await openPlayer(reference, { width: 1440, height: 900 });
    const player = (await page.locator('.bf-player').boundingBox())!;

    // The mouse away from the player: the bar hides, and a hidden bar takes no clicks.
    await page.mouse.move(player.x + player.width / 2, player.y + player.height + 20);
    await waitFor(async () => (await barAndChoices(page)).opacity === 0, 3000, 'the controls to hide');
    expect((await barAndChoices(page)).pointerEvents).toBe('none');

    // Over the player the bar shows, below the choices; a click on a choice's lower half takes it.
    await page.mouse.move(player.x + 40, player.y + 40);
    await waitFor(async () => (await barAndChoices(page)).opacity === 1, 3000, 'the controls to show');
    const shown = await barAndChoices(page);
    expect(shown.pointerEvents).toBe('auto');
    expect(shown.choices).toHaveLength(2);
    for (const c of shown.choices) {
      expect(intersects(c, shown.bar)).toBe(false);
      expect(c.bottom).toBeLessThanOrEqual(player.y + player.height);
    }
    await shot(page, 'player-mouse-1440-controls-over-low-choices');

    // The keyboard reaches the controls (with the mouse away, they show on focus). From the start
    // again: the 12 s clip may have ended meanwhile, and a stopped video shows its controls.
    await page.mouse.move(player.x + player.width / 2, player.y + player.height + 20);
    await page.reload();
    await page.getByRole('button', { name: 'See the plans' }).waitFor({ state: 'visible', timeout: 15_000 });
    await waitFor(async () => (await barAndChoices(page)).opacity === 0, 3000, 'the controls to hide');
    let inBar = false;
    for (let i = 0; i < 12 && !inBar; i++) {
      await page.keyboard.press('Tab');
      inBar = await page.evaluate(() => Boolean(document.activeElement?.closest('.bf-controls')));
    }
    expect(inBar).toBe(true);
    await waitFor(async () => (await barAndChoices(page)).opacity === 1, 3000, 'the controls to show on focus');
    const focused = await barAndChoices(page);
    for (const c of focused.choices) expect(intersects(c, focused.bar)).toBe(false);
    await shot(page, 'player-keyboard-1440-controls-focused');

    const plans = focused.choices[1];
    await page.mouse.click(lowerMiddle(plans).x, lowerMiddle(plans).y);
    await waitFor(async () => (await currentEditor(page)) === 'plans', 5000, 'the plans video');
    await branchRecorded(funnelId, 'demo-to-plans');
    await context.close();
    expect(errors).toEqual([]);
  });
});
