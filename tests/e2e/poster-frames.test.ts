import type { Browser, Page } from 'playwright-core';
import { MESSAGES, type VideoResource } from '@branchify/shared';
import { addVideo, freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { hostedMediaUrl, routeMediaHost, startMediaServer, unreadableClipLines, type MediaServer } from './support/media-server';

/**
 * Poster frames for direct video URLs: the browser draws one from the clip when the clip's host
 * lets it read the pixels (CORS), stores it as the video's poster, and every later view shows the
 * stored picture; a clip it may not read keeps the provider tile.
 */

const until = async (fn: () => Promise<boolean>, what: string, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describeBrowser('poster frames of direct video URLs', () => {
  let browser: Browser;
  let admin: Session;
  let media: MediaServer;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
    media = await startMediaServer();
  });
  afterAll(async () => {
    await browser?.close();
    await media?.close();
  });

  /**
   * A signed-in creator on the library, with every console error and every request for `clip`
   * recorded. `servedWithoutCors`: Chromium reports the refused load of that clip itself (its CORS
   * notice and the failed resource) when the library tries to draw its frame; no page can silence it.
   */
  const libraryOf = async (user: Session, clip: string, { servedWithoutCors = false } = {}) => {
    const { page, context } = await openApp(browser);
    if (servedWithoutCors) {
      expectConsoleErrors(page, unreadableClipLines(clip), 'the clip is served without CORS: Chromium reports the refused frame read itself');
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await routeMediaHost(context);
    // The media server itself answers (its responses untouched, so without CORS headers).
    const mediaOrigin = new URL(media.url('x')).origin;
    await context.route(
      (url) => url.origin === mediaOrigin,
      (route) => route.continue(),
    );
    const errors: string[] = [];
    const clipRequests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('request', (r) => {
      if (r.url() === clip) clipRequests.push(r.url());
    });
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    await page.goto('/library');
    return { page, context, errors, clipRequests };
  };

  const storedVideo = async (user: Session, url: string): Promise<VideoResource> => {
    const res = await user.http.get('/api/videos?per_page=100', user.token);
    return (res.body.data.data as VideoResource[]).find((v) => v.source_url === url)!;
  };

  const pictureLoaded = (page: Page, title: string) =>
    page
      .getByTestId('video-card')
      .filter({ hasText: title })
      .locator('[data-testid="video-poster"][data-poster="image"] img')
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

  it('draws a frame from a clip the browser may read, stores it as the poster, and shows it from storage after a reload', async () => {
    const user = await subscribedUser(admin, (await freePlan(admin)).id);
    const clip = hostedMediaUrl('poster-frame');
    const { page, context, errors, clipRequests } = await libraryOf(user, clip);

    // Added as a creator does, through the library's form.
    await page.getByRole('button', { name: 'Add Video' }).click();
    const modal = page.locator('[data-modal="create-video"]');
    await modal.getByRole('tab', { name: 'Custom URL' }).click();
    await modal.locator('input[name=url]').fill(clip);
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.videoAdded);

    const card = page.getByTestId('video-card').filter({ hasText: 'poster-frame' });
    const poster = card.getByTestId('video-poster');
    await until(() => pictureLoaded(page, 'poster-frame'), 'the drawn frame on the library card');
    const shown = await poster.locator('img').getAttribute('src');
    expect(shown).toMatch(/^\/uploads\/[\w-]+\.jpg$/);
    // The picture is the clip's frame at its size (the sample is 320×180), not a tile.
    expect(await poster.locator('img').evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([320, 180]);
    expect(await poster.getByTestId('poster-provider').count()).toBe(0);
    expect((await storedVideo(user, clip)).thumbnail).toBe(shown);
    await shot(page, 'library-poster-frame-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'library-poster-frame-390');

    // After a reload the stored picture is shown and the clip is not fetched to draw it again.
    clipRequests.length = 0;
    await page.reload();
    await until(() => pictureLoaded(page, 'poster-frame'), 'the stored poster after a reload');
    expect(await poster.locator('img').getAttribute('src')).toBe(shown);
    expect(clipRequests).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the tile for a clip served without CORS, and does not try again on the next visit', async () => {
    const user = await subscribedUser(admin, (await freePlan(admin)).id);
    const clip = media.url('no-cors');
    await addVideo(user, { provider: 'generic', url: clip, title: 'Closed clip', duration: 12 });
    const { page, context, errors, clipRequests } = await libraryOf(user, clip, { servedWithoutCors: true });

    const poster = page.getByTestId('video-card').filter({ hasText: 'Closed clip' }).getByTestId('video-poster');
    await poster.waitFor();
    // The one attempt: the browser refuses the clip to the page, which keeps the tile.
    await until(async () => (await poster.getAttribute('data-frame')) === 'unreadable', 'the refused attempt');
    expect(await poster.getAttribute('data-poster')).toBe('tile');
    expect(await poster.innerText()).toContain('Custom URL');
    expect(await poster.innerText()).toContain('0:12');
    expect((await storedVideo(user, clip)).thumbnail).toBeNull();
    // The app logs nothing; what Chromium reports itself for the refused load (its CORS notice and
    // the failed resource) cannot be silenced by a page, so only those lines may appear.
    const browserOwn = (e: string) => (e.includes(clip) && /blocked by CORS policy/.test(e)) || e === 'Failed to load resource: net::ERR_FAILED';
    expect(errors.filter((e) => !browserOwn(e))).toEqual([]);
    await shot(page, 'library-poster-tile-1440');

    // The next visit remembers the refusal: no request, no console line at all.
    clipRequests.length = 0;
    errors.length = 0;
    await page.reload();
    await poster.waitFor();
    // An absence is watched for a while (the wait is the point): no request for the clip comes.
    await page.waitForTimeout(1500);
    expect(await poster.getAttribute('data-poster')).toBe('tile');
    expect(clipRequests).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
