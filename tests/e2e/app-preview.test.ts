import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page, Route } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { addVideo, freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, failedRequest, launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

const SAMPLE = path.join(__dirname, '..', '..', 'database', 'seed', 'sample.webm');
// https: the app's Content-Security-Policy allows media from https origins only.
const SAMPLE_URL = 'https://media.example.test/preview-sample.webm';
const MISSING_URL = 'https://media.example.test/missing.webm';

/** The sample clip as a CDN serves it: with HTTP Range support, which the browser needs to seek. */
const serveWithRanges = (bytes: Buffer) => async (route: Route) => {
  const size = bytes.length;
  const headers = { 'Accept-Ranges': 'bytes', 'Content-Type': 'video/webm' };
  const range = /^bytes=(\d*)-(\d*)$/.exec(route.request().headers()['range'] ?? '');
  if (!range) return route.fulfill({ status: 200, headers, body: bytes });
  const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
  const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
  if (start >= size || start > end) return route.fulfill({ status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  return route.fulfill({ status: 206, headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}` }, body: bytes.subarray(start, end + 1) });
};

/**
 * The web app previews library videos in the Branchify player (@branchify/player's VideoPlayer):
 * the load_video loader, the spec's controls, and, when a provider's script cannot load, the
 * spec's message in place of the video and in the alert banner instead of a blank box.
 */
describeBrowser('web app: video previews in the player', () => {
  let browser: Browser;
  let user: Session;
  let page: Page;
  const blocked: string[] = [];

  beforeAll(async () => {
    browser = await launch();
    const admin = await adminSession();
    const plan = await freePlan(admin, { video_sources: null });
    user = await subscribedUser(admin, plan.id);
    await addVideo(user, { provider: 'generic', url: SAMPLE_URL, title: 'Sample clip' });
    await addVideo(user, { provider: 'youtube', url: 'dQw4w9WgXcQ', title: 'YouTube clip' });
    await addVideo(user, { provider: 'vimeo', url: '76979871', title: 'Vimeo clip' });

    const app = await openApp(browser);
    page = app.page;
    await app.context.route(SAMPLE_URL, serveWithRanges(fs.readFileSync(SAMPLE)));
    await app.context.route(MISSING_URL, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
    // YouTube's IFrame API and Vimeo's player are unreachable (as behind a blocking network). The
    // answer comes after a moment, so that the loader can be seen first.
    const unreachable = async (route: Route) => {
      blocked.push(route.request().url());
      // A slow network on purpose (the wait is the point): the loader shows first.
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.abort('internetdisconnected');
    };
    await app.context.route('https://www.youtube.com/**', unreachable);
    await app.context.route('https://player.vimeo.com/**', unreachable);
    await app.context.route('https://vimeo.com/**', unreachable);
    await app.context.route('https://*.vimeocdn.com/**', unreachable);
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    await page.getByRole('link', { name: 'Library', exact: true }).click();
    await waitForPath(page, '/library');
    await page.getByTestId('video-card').first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    // A test that failed half-way must not leave its modal over the next one.
    for (let i = 0; i < 3 && (await page.locator('[data-modal]').count()) > 0; i += 1) {
      await page.keyboard.press('Escape');
      await page.waitForTimeout(300);
    }
  });

  const openPreview = async (title: string): Promise<Locator> => {
    await page.getByRole('button', { name: `Preview ${title}` }).click();
    const modal = page.locator('[data-modal="preview-video"]');
    await modal.getByTestId('video-preview').waitFor();
    return modal;
  };
  const closePreview = async (modal: Locator) => {
    await modal.getByRole('button', { name: 'Close' }).last().click();
    await modal.waitFor({ state: 'detached' });
  };
  const currentTime = () => page.locator('[data-modal="preview-video"] video').evaluate((v: HTMLVideoElement) => v.currentTime);

  it('plays a direct video URL in the player: loader, the spec controls, and the time advancing', async () => {
    const modal = await openPreview('Sample clip');
    const player = modal.getByRole('region', { name: 'Sample clip' });
    expect(await player.getAttribute('data-provider')).toBe('generic');
    // Ready: the loader is gone and the region no longer busy.
    await modal.locator('[aria-busy="false"]').waitFor();
    expect(await modal.getByRole('progressbar', { name: 'load_video' }).count()).toBe(0);
    // The spec's controls: play, progress, current time, settings, volume, fullscreen.
    await player.getByRole('slider', { name: 'Seek' }).waitFor();
    await player.locator('.bf-time').waitFor();
    await player.getByRole('button', { name: 'Settings' }).waitFor();
    await player.getByRole('button', { name: /^(Mute|Unmute)$/ }).waitFor();
    await player.getByRole('slider', { name: 'Volume' }).waitFor();
    await player.getByRole('button', { name: 'Fullscreen' }).waitFor();

    // The preview autoplays after the click that opened it; if the browser refused, press Play.
    const pause = player.getByRole('button', { name: 'Pause', exact: true });
    if (!(await pause.isVisible().catch(() => false))) {
      const big = player.getByRole('button', { name: 'Play video' });
      if (await big.isVisible().catch(() => false)) await big.click();
      else await player.getByRole('button', { name: 'Play', exact: true }).click();
    }
    await pause.waitFor({ state: 'attached' });
    const t0 = await currentTime();
    await page.waitForFunction((start) => {
      const v = document.querySelector('[data-modal="preview-video"] video') as HTMLVideoElement | null;
      return Boolean(v && v.currentTime > start + 0.5);
    }, t0);
    expect(await currentTime()).toBeGreaterThan(t0);
    // The time readout follows the video (1 s or more into the 12 s clip).
    await page.waitForFunction(() => /^0:0[1-9] \/ 0:1[0-9]$/.test(document.querySelector('[data-modal="preview-video"] .bf-time')?.textContent?.trim() ?? ''));
    await player.hover(); // the controls fade out while playing, until hovered
    await page.waitForTimeout(400);
    await shot(page, '40-preview-generic-playing');

    // Pause, then seek with the progress bar (its step is the spec's 10 s seek step).
    await pause.click();
    await player.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await player.getByRole('slider', { name: 'Seek' }).evaluate((el: HTMLInputElement) => {
      // The native setter, as a user's drag does (React tracks the element's own value setter).
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, '10');
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction(() => {
      const v = document.querySelector('[data-modal="preview-video"] video') as HTMLVideoElement | null;
      return Boolean(v && Math.abs(v.currentTime - 10) < 0.5 && v.paused);
    });
    expect(await modal.getByRole('alert').count()).toBe(0);
    await closePreview(modal);
  });

  it('shows the spec message instead of a blank box when the YouTube IFrame API cannot load', async () => {
    const before = blocked.length;
    const modal = await openPreview('YouTube clip');
    const player = modal.getByRole('region', { name: 'YouTube clip' });
    expect(await player.getAttribute('data-provider')).toBe('youtube');
    // The loader shows while the script is fetched…
    await modal.getByRole('progressbar', { name: 'load_video' }).waitFor();
    expect(await player.getAttribute('aria-busy')).toBe('true');
    // …and closes on the failure, with the spec's message in place of the video and in the banner.
    await modal.getByRole('alert').filter({ hasText: MESSAGES.playerLoadFailed }).waitFor();
    expect(await modal.getByRole('progressbar', { name: 'load_video' }).count()).toBe(0);
    expect(await player.getAttribute('aria-busy')).toBe('false');
    expect(await expectAlert(page, MESSAGES.playerLoadFailed)).toBe('error');
    expect(blocked.slice(before).some((u) => u.startsWith('https://www.youtube.com/iframe_api'))).toBe(true);
    expect(await modal.locator('iframe').count()).toBe(0);
    await shot(page, '41-preview-youtube-unreachable');
    await closePreview(modal);
  });

  it("shows Vimeo's spec message when Vimeo's player cannot load", async () => {
    const before = blocked.length;
    const modal = await openPreview('Vimeo clip');
    const player = modal.getByRole('region', { name: 'Vimeo clip' });
    expect(await player.getAttribute('data-provider')).toBe('vimeo');
    await modal.getByRole('progressbar', { name: 'load_video' }).waitFor();
    await modal.getByRole('alert').filter({ hasText: MESSAGES.vimeoLoadFailed }).waitFor();
    expect(await modal.getByRole('progressbar', { name: 'load_video' }).count()).toBe(0);
    expect(await expectAlert(page, MESSAGES.vimeoLoadFailed)).toBe('error');
    expect(blocked.slice(before).some((u) => /^https:\/\/(player\.)?vimeo\.com\//.test(u))).toBe(true);
    await shot(page, '42-preview-vimeo-unreachable');
    await closePreview(modal);
  });

  it('the create-video modal previews in the same player: a direct URL that fails shows the spec message', async () => {
    expectConsoleErrors(page, failedRequest(404, new URL(MISSING_URL).pathname), 'the direct URL points at no file');
    await page.getByRole('button', { name: 'Add Video' }).click();
    const modal = page.locator('[data-modal="create-video"]');
    await modal.getByRole('tab', { name: 'Custom URL' }).click();
    await modal.locator('input[name=url]').fill(MISSING_URL);
    // After the 1000 ms debounce the player loads the URL, which answers 404.
    await modal.getByTestId('video-preview').getByRole('alert').filter({ hasText: MESSAGES.playerLoadFailed }).waitFor();
    expect(await expectAlert(page, MESSAGES.playerLoadFailed)).toBe('error');

    // A working URL replaces the message with the video (the player reloads on a new embed URL).
    await modal.locator('input[name=url]').fill(SAMPLE_URL);
    await modal.getByTestId('video-preview').locator('[data-provider="generic"][aria-busy="false"] video').waitFor();
    await page.waitForFunction(() => {
      const v = document.querySelector('[data-modal="create-video"] video') as HTMLVideoElement | null;
      return Boolean(v && v.readyState >= 1 && v.duration > 0);
    });
    expect(await modal.getByTestId('video-preview').getByRole('alert').count()).toBe(0);
    // Not autoplaying here: the big play button waits, over the frame at 2 s.
    await modal.getByRole('button', { name: 'Play video' }).waitFor();
    await shot(page, '43-create-video-preview');
    await modal.getByRole('button', { name: 'Cancel' }).click();
  });
});
