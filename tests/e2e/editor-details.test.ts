import type { Browser, Locator, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { addVideo, createFunnel, freePlan, subscribedUser } from '../api/support/content';
import { baseUrl } from '../api/support/http';
import { adminSession, type Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, launch, loginViaUi, openApp, shot, shotAtBothWidths, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { COLOR_FORMAT_HINT } from '../../frontend/src/shared/inputs/color-value';
import { SAFE_AREA } from '../../frontend/src/creator/editor/timeline-math';
import { hostedMediaUrl, plainHttpMediaUrl, routeMediaHost, startMediaServer, unreadableClipLines } from './support/media-server';

/**
 * The video editor's details: what the stage accepts, where new elements land, the colour
 * picker, and the texts around them.
 */

/** A 1×1 PNG, standing in for a provider's picture. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describeBrowser('video editor details', () => {
  let browser: Browser;
  let admin: Session;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A user whose funnel holds one library video (given by its source), signed in on the funnel's editor. */
  const editorWith = async (video: Record<string, unknown>, viewport = { width: 1440, height: 900 }) => {
    const user = await subscribedUser(admin, (await freePlan(admin, { max_branch_per_funnel: 20 })).id);
    const added = await addVideo(user, video);
    const funnel = await createFunnel(user);
    const res = await user.http.put(
      `/api/funnels/${funnel.id}`,
      { title: 'Details', settings: { enable_resume_play: false }, videos: [{ id: added.id, editor_id: 'intro', elements: [] }] },
      user.token,
    );
    if (res.status !== 200) throw new Error(`funnel save failed: ${res.status} ${JSON.stringify(res.body)}`);
    const { page, context } = await openApp(browser);
    await page.setViewportSize(viewport);
    await routeMediaHost(context);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${funnel.id}/edit`);
    return { page, context, user, funnel, errors, video: added };
  };

  const openVideoEditor = async (page: Page, title: string) => {
    await page.getByRole('button', { name: `Edit ${title}` }).click();
    const editor = page.locator('[data-modal="funnel-video-editor"]');
    await editor.locator('.bf-player[data-state="ready"], .bf-player[data-state="error"]').first().waitFor();
    return editor;
  };

  it('plays a direct http: video on the stage, as the library and the player do', async () => {
    const { page, context, errors } = await editorWith({ provider: 'generic', url: plainHttpMediaUrl('plain-http'), title: 'Plain http' });
    const editor = await openVideoEditor(page, 'Plain http');
    expect(await editor.locator('.bf-player').getAttribute('data-state')).toBe('ready');
    // The stage reads the real length of the clip (12 s), not a stand-in minute.
    await until(async () => (await editor.getByTestId('timeline').innerText()).includes('/ 0:12'), 'the real duration on the timeline');
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await shot(page, 'editor-http-video-1440');
    await context.close();

    // One definition of media sources: the app's policy and the player page's name the same ones.
    const mediaSrc = async (path: string) => {
      const csp = (await fetch(`${baseUrl()}${path}`)).headers.get('content-security-policy') ?? '';
      return /(?:^|;)\s*media-src ([^;]*)/.exec(csp)?.[1]?.trim().split(/\s+/).sort();
    };
    const app = await mediaSrc('/funnels');
    expect(app).toEqual(expect.arrayContaining(['http:', 'https:']));
    expect(await mediaSrc('/player/NoSuchFunnelReference1')).toEqual(app);
  });

  it('places each new button where it overlaps nothing inside the safe area, on its default background', async () => {
    const { page, context } = await editorWith({ provider: 'generic', url: hostedMediaUrl('placement'), title: 'Placement', duration: 12 });
    const editor = await openVideoEditor(page, 'Placement');
    const panel = editor.getByTestId('element-panel');
    await editor.getByRole('button', { name: 'Add text element' }).click();
    await panel.getByRole('button', { name: 'Back' }).click();
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    await panel.getByRole('tab', { name: 'Prompt' }).click();
    await panel.getByLabel('Prompt text').fill('Where next?');
    await panel.getByRole('tab', { name: 'Buttons' }).click();
    for (let i = 0; i < 3; i += 1) await panel.getByRole('button', { name: 'Add branch' }).click();
    await editor.locator('[data-branch-id]').nth(3).waitFor();

    const layer = (await editor.getByTestId('edit-layer').boundingBox())!;
    const scale = layer.width / 640;
    await shot(page, 'editor-new-buttons-placed-1440');
    const parts = editor.getByTestId('edit-layer').locator('[data-element-id], [data-branch-id], [aria-label^="Prompt:"]');
    const boxes: Array<{ name: string; x: number; y: number; width: number; height: number }> = [];
    for (const part of await parts.all()) {
      const b = (await part.boundingBox())!;
      const name = (await part.getAttribute('aria-label')) ?? '';
      // In design pixels, relative to the video's corner.
      boxes.push({ name, x: (b.x - layer.x) / scale, y: (b.y - layer.y) / scale, width: b.width / scale, height: b.height / scale });
    }
    expect(boxes).toHaveLength(6);
    const overlaps = (a: (typeof boxes)[number], b: (typeof boxes)[number]) =>
      a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) expect(overlaps(a, b) ? `${a.name} overlaps ${b.name}` : '').toBe('');
      // Inside the safe area: clear of the edges and of the player's controls at the bottom.
      expect(a.x).toBeGreaterThanOrEqual(SAFE_AREA.left - 0.5);
      expect(a.y).toBeGreaterThanOrEqual(SAFE_AREA.top - 0.5);
      expect(a.x + a.width).toBeLessThanOrEqual(640 - SAFE_AREA.right + 0.5);
      expect(a.y + a.height).toBeLessThanOrEqual(360 - SAFE_AREA.bottom + 0.5);
    }
    // Each new button shows the default background (not transparent).
    for (const button of await editor.locator('[data-branch-id]').all()) {
      expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(47, 39, 206)');
    }
    await context.close();
  });

  it('picks colours with alpha: the RGBA picker by keyboard, and hex or rgba typed in', async () => {
    const { page, context, user, funnel } = await editorWith({ provider: 'generic', url: hostedMediaUrl('colours'), title: 'Colours', duration: 12 });
    const editor = await openVideoEditor(page, 'Colours');
    const panel = editor.getByTestId('element-panel');
    await editor.getByRole('button', { name: 'Add text element' }).click();
    const text = editor.getByTestId('edit-layer').locator('[data-element-id]');
    // No native colour input is left in the editor's panels.
    expect(await panel.locator('input[type=color]').count()).toBe(0);

    await panel.getByRole('button', { name: 'Colour: #ffffff' }).click();
    const dialog = page.getByRole('dialog', { name: 'Colour' });
    await dialog.waitFor();
    // The alpha slider moves with the arrow keys: 5 % a step.
    const alpha = dialog.getByRole('slider', { name: 'Alpha' });
    await alpha.focus();
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowLeft');
    await until(async () => (await text.evaluate((el) => getComputedStyle(el).color)) === 'rgba(255, 255, 255, 0.8)', 'the colour at 80 % alpha');
    expect(await dialog.getByLabel('Colour (hex or rgba)').inputValue()).toBe('rgba(255, 255, 255, 0.8)');
    await shot(page, 'editor-colour-picker-1440');

    // Typed: rgba, then 8-digit hex; something else is named and not stored.
    const typed = dialog.getByLabel('Colour (hex or rgba)');
    await typed.fill('rgba(10, 20, 30, 0.5)');
    await until(async () => (await text.evaluate((el) => getComputedStyle(el).color)) === 'rgba(10, 20, 30, 0.5)', 'the typed rgba colour');
    await typed.fill('#ff000080');
    await until(async () => (await text.evaluate((el) => getComputedStyle(el).color)) === 'rgba(255, 0, 0, 0.5)', 'the typed hex colour');
    await typed.fill('reddish');
    await dialog.getByText(COLOR_FORMAT_HINT).waitFor();
    expect(await text.evaluate((el) => getComputedStyle(el).color)).toBe('rgba(255, 0, 0, 0.5)');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Colour: rgba(255, 0, 0, 0.5)' }).waitFor();

    // The branch element's colours (button background here) use the same picker.
    await panel.getByRole('button', { name: 'Back' }).click();
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    expect(await panel.locator('input[type=color]').count()).toBe(0);
    await panel
      .getByRole('button', { name: /^Background colour: / })
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Background colour' }).getByLabel('Background colour (hex or rgba)').fill('rgba(47, 39, 206, 0.6)');
    const button = editor.getByTestId('edit-layer').locator('[data-branch-id]').first();
    await until(async () => (await button.evaluate((el) => getComputedStyle(el).backgroundColor)) === 'rgba(47, 39, 206, 0.6)', 'the button background');
    await page.keyboard.press('Escape');
    // (The funnel has one video: this button jumps in it.)
    await panel.getByRole('tab', { name: 'Action' }).click();
    await panel.getByRole('combobox', { name: 'Click action' }).click();
    await page.getByRole('option', { name: 'Jump To Timestamp', exact: true }).click();

    // Saved as picked: rgba() where there is alpha.
    await editor.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('dirty').waitFor({ state: 'detached' });
    const saved = await user.http.get(`/api/funnels/${funnel.id}`, user.token);
    const [savedText, savedBranch] = saved.body.data.videos[0].elements;
    expect(savedText.data.color).toBe('rgba(255, 0, 0, 0.5)');
    expect(savedBranch.data.branches[0].standard.background.color).toBe('rgba(47, 39, 206, 0.6)');
    await context.close();
  });

  it('lets search engines list the funnel from its details: a described switch, by keyboard, still on after saving and a reload', async () => {
    const { page, context, user, funnel, errors } = await editorWith({ provider: 'generic', url: hostedMediaUrl('indexing'), title: 'Indexing', duration: 12 });
    const toggle = page.getByRole('switch', { name: MESSAGES.allowIndexingLabel });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    // Its helper text is what a screen reader announces as the switch's description.
    const describedBy = (await toggle.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(MESSAGES.allowIndexingHelp);

    await toggle.focus();
    await page.keyboard.press('Space');
    expect(await toggle.isChecked()).toBe(true);
    await page.getByTestId('dirty').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('dirty').waitFor({ state: 'detached' });
    const saved = await user.http.get(`/api/funnels/${funnel.id}`, user.token);
    expect(saved.body.data.settings).toEqual({ enable_resume_play: false, allow_indexing: true });
    const player = await fetch(`${baseUrl()}/player/${funnel.identifier}`);
    expect(/<meta name="robots" content="([^"]*)">/.exec(await player.text())?.[1]).toBe('index, follow');
    expect(player.headers.get('x-robots-tag')).toBeNull();

    await page.reload();
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await toggle.scrollIntoViewIfNeeded();
    await shot(page, 'editor-allow-indexing-1440');

    // A phone gets no editor: the update-funnel modal has the same described switch, on as saved.
    await page.goto('/funnels');
    await page.getByRole('button', { name: 'Update Details' }).click();
    const update = page.locator('[data-modal="update-funnel"]');
    const inModal = update.getByRole('switch', { name: MESSAGES.allowIndexingLabel });
    expect(await inModal.isChecked()).toBe(true);
    const modalNote = (await inModal.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${modalNote}"]`).innerText()).toBe(MESSAGES.allowIndexingHelp);
    await shotAtBothWidths(page, 'update-funnel-allow-indexing');
    await inModal.focus();
    await page.keyboard.press('Space');
    await update.getByRole('button', { name: 'Update' }).click();
    await expectAlert(page, MESSAGES.funnelUpdated);
    expect((await user.http.get(`/api/funnels/${funnel.id}`, user.token)).body.data.settings).toEqual({ enable_resume_play: false, allow_indexing: false });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads in full: padding labels are not cut, and zooming the timeline keeps the playhead in view', async () => {
    const { page, context } = await editorWith({ provider: 'generic', url: hostedMediaUrl('details'), title: 'Details', duration: 12 });
    const editor = await openVideoEditor(page, 'Details');
    const panel = editor.getByTestId('element-panel');
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    for (const side of ['top', 'right', 'bottom', 'left']) {
      const label = panel.locator('label', { hasText: `Padding ${side}` });
      expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }

    // The playhead at 9 s, then the timeline zoomed all the way in: it is still in view.
    const view = editor.getByTestId('timeline-ruler').locator('xpath=../..');
    const ruler = (await editor.getByTestId('timeline-ruler').boundingBox())!;
    await page.mouse.click(ruler.x + ruler.width * 0.75, ruler.y + ruler.height / 2);
    const playhead = editor.getByTestId('playhead');
    await until(async () => Number(await playhead.getAttribute('aria-valuenow')) >= 8, 'the playhead at 9 s');
    for (let i = 0; i < 8; i += 1) await editor.getByRole('button', { name: 'Zoom in' }).click();
    expect(await editor.getByRole('button', { name: 'Zoom in' }).isDisabled()).toBe(true);
    const inView = async () => {
      const box = (await view.boundingBox())!;
      const head = (await playhead.boundingBox())!;
      return head.x >= box.x && head.x + head.width <= box.x + box.width;
    };
    await until(inView, 'the playhead in view after zooming in');
    await shot(page, 'editor-zoomed-playhead-1440');
    for (let i = 0; i < 4; i += 1) await editor.getByRole('button', { name: 'Zoom out' }).click();
    await until(inView, 'the playhead in view after zooming out');
    await context.close();
  });

  it('shows a poster for each video: the provider picture where there is one, else a tile with the provider and the duration', async () => {
    const { page, context, user, funnel, video } = await editorWith({ provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', duration: 212 });
    // A direct clip on a host without CORS: the browser may not read its frames, so it stays a tile.
    const media = await startMediaServer();
    const mediaOrigin = new URL(media.url('x')).origin;
    await context.route(
      (url) => url.origin === mediaOrigin,
      (route) => route.continue(),
    );
    const added = await addVideo(user, { provider: 'generic', url: media.url('poster-tile'), title: 'Direct clip', duration: 12 });
    expectConsoleErrors(
      context,
      unreadableClipLines(media.url('poster-tile')),
      'the clip is served without CORS: Chromium reports the refused frame read itself',
    );
    // YouTube's picture host answers for the first id; a picture that fails to load falls back to the tile.
    await context.route('https://i.ytimg.com/**', (route) =>
      route.request().url().includes('dQw4w9WgXcQ') ? route.fulfill({ status: 200, contentType: 'image/png', body: PNG }) : route.abort('failed'),
    );
    await addVideo(user, { provider: 'youtube', url: 'https://youtu.be/aaaaaaaaaaa', title: 'Gone picture', duration: 65 });
    expectConsoleErrors(context, /net::ERR_FAILED \(https:\/\/i\.ytimg\.com\/vi\/aaaaaaaaaaa\//, 'the second picture fails to load on purpose');
    await user.http.put(
      `/api/funnels/${funnel.id}`,
      {
        title: 'Details',
        settings: { enable_resume_play: false },
        videos: [
          { id: video.id, editor_id: 'intro', elements: [] },
          { id: added.id, editor_id: 'clip', elements: [] },
        ],
      },
      user.token,
    );

    const expectPosters = async (scope: Locator) => {
      const yt = scope.getByTestId('video-poster').and(scope.locator('[data-poster="image"]')).first();
      await until(
        async () => (await yt.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)) === true,
        'the YouTube picture',
      );
      expect(await yt.locator('img').getAttribute('src')).toBe('https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg');
      const tile = scope.locator('[data-testid="video-poster"][data-poster="tile"]').filter({ hasText: 'Custom URL' }).first();
      await tile.waitFor();
      expect(await tile.getByTestId('poster-duration').innerText()).toBe('0:12');
    };

    // The library: both kinds, and a YouTube picture that does not load becomes a tile too.
    await page.goto('/library');
    await page.getByTestId('video-card').nth(2).waitFor();
    await expectPosters(page.locator('main'));
    const gone = page.getByTestId('video-card').filter({ hasText: 'Gone picture' }).getByTestId('video-poster');
    await until(async () => (await gone.getAttribute('data-poster')) === 'tile', 'the fallback tile');
    expect(await gone.innerText()).toContain('YouTube');
    expect(await gone.innerText()).toContain('1:05');
    await shot(page, 'library-posters-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('video-card').first().scrollIntoViewIfNeeded();
    await shot(page, 'library-posters-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    // The editor's rows, the video picker and the map use the same poster.
    await page.goto(`/funnels/${funnel.id}/edit`);
    await page.getByTestId('funnel-video').nth(1).waitFor();
    await expectPosters(page.locator('main'));
    await page.getByRole('button', { name: 'Add videos' }).first().click();
    const picker = page.locator('[data-modal="video-to-funnel"]');
    await picker.getByTestId('picker-video').nth(2).waitFor();
    await expectPosters(picker);
    await shot(page, 'picker-posters-1440');
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.locator('.react-flow');
    await map.getByTestId('video-poster').nth(1).waitFor();
    await expectPosters(map);
    await shot(page, 'map-posters-1440');
    await context.close();
    await media.close();
  });
});
