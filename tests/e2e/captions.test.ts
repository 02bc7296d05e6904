import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { addVideo, createFunnel, freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, failedRequest, launch, loginViaUi, openApp, shot, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

/**
 * Captions end to end: a creator uploads a WebVTT and an SRT track to a direct video from the
 * library, a viewer turns them on and switches language with the keyboard alone, sees the cue over
 * the video, and finds the choice kept after a reload.
 */

const ENGLISH = `WEBVTT

00:00:00.000 --> 00:00:06.000
Hello <b>viewer</b>

00:00:06.000 --> 00:00:12.000
<script>window.__pwned = 1</script>Still text
`;
const FRENCH = `1
00:00:00,000 --> 00:00:06,000
Bonjour <i>spectateur</i>

2
00:00:06,000 --> 00:00:12,000
Encore du texte
`;
const BROKEN = 'WEBVTT\n\n00:00:00.000 --> 00:00:06.000\nfine\n\n00:00:06.000 --> later\nbroken\n';

const file = (name: string, content: string) => ({ name, mimeType: name.endsWith('.vtt') ? 'text/vtt' : 'application/x-subrip', buffer: Buffer.from(content) });

const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');

/** Presses Tab until the focused control's name matches (the keyboard's way to a control). */
const tabTo = async (page: Page, name: RegExp, max = 30) => {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (name.test(await focusedLabel(page))) return;
  }
  throw new Error(`Tab never reached ${name}`);
};

const cueText = (page: Page) => page.locator('.bf-captions').innerText();

describeBrowser('captions: uploaded in the library, chosen by keyboard in the player', () => {
  let browser: Browser;
  let admin: Session;
  let planId: number;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
    planId = (await freePlan(admin)).id;
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The creator's library at this width: the video's Captions modal gets an English and a French track. */
  const uploadTracks = async (creator: Session, title: string, width: number) => {
    const { page, context } = await openApp(browser);
    expectConsoleErrors(page, failedRequest(422, '/api/videos/'), 'the broken caption file is refused with a 422, as it should be');
    await routeMediaHost(context);
    await page.setViewportSize({ width, height: 900 });
    await loginViaUi(page, creator.email, creator.password);
    await waitForPath(page, '/funnels');
    await page.goto('/library');
    await page.getByRole('button', { name: `Captions of ${title}` }).click();
    const modal = page.locator('[data-modal="video-captions"]');
    const section = modal.getByTestId('captions-section');
    await section.getByText('This video has no captions yet.').waitFor();

    const upload = async (language: string, label: string, chosen: ReturnType<typeof file>) => {
      await section.getByRole('textbox', { name: /Language code/ }).fill(language);
      await section.getByRole('textbox', { name: /Label/ }).fill(label);
      await section.locator('input[type=file]').setInputFiles(chosen);
      await section.getByTestId('caption-file-name').filter({ hasText: chosen.name }).waitFor();
      await section.getByRole('button', { name: 'Upload captions' }).click();
    };

    // A file that fails: the error names its line, under the file, and nothing is stored.
    await upload('de', 'Deutsch', file('broken.vtt', BROKEN));
    await section.getByTestId('caption-file-error').filter({ hasText: 'Line 6: "later" is not a time' }).waitFor();
    await shot(page, `captions-library-error-${width}`);

    await upload('en', 'English', file('english.vtt', ENGLISH));
    expect(await expectAlert(page, MESSAGES.captionTrackAdded)).toBe('success');
    await section.getByTestId('caption-tracks').getByText('English', { exact: true }).waitFor();
    expect(await section.getByTestId('caption-file-error').count()).toBe(0);

    await upload('fr', 'Français', file('francais.srt', FRENCH));
    await section.getByTestId('caption-tracks').getByText('Français', { exact: true }).waitFor();
    const rows = await section.getByTestId('caption-tracks').getByRole('listitem').allInnerTexts();
    expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual(['English en · 2 cues', 'Français fr · 2 cues']);
    await shot(page, `captions-library-tracks-${width}`);
    await context.close();
  };

  /** The viewer's page at this width; the sample clip plays from the stand-in media host. */
  const openPlayer = async (reference: string, width: number) => {
    const { page, context } = await openApp(browser);
    await routeMediaHost(context);
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`/player/${reference}`);
    return { page, context, errors };
  };

  for (const width of [1440, 390]) {
    it(`at ${width} px: tracks uploaded in two languages, switched by keyboard, shown over the video and remembered`, async () => {
      const creator = await subscribedUser(admin, planId);
      const title = `Captioned clip ${width}`;
      const video = await addVideo(creator, { provider: 'generic', url: hostedMediaUrl(`captions-${width}`), title });
      await uploadTracks(creator, title, width);

      const funnel = await createFunnel(creator, { title: `Captions ${width}` });
      const saved = await creator.http.put(
        `/api/funnels/${funnel.id}`,
        { title: `Captions ${width}`, settings: { enable_resume_play: false }, videos: [{ id: video.id, editor_id: 'intro', elements: [] }] },
        creator.token,
      );
      expect(saved.status).toBe(200);

      const { page, errors } = await openPlayer(funnel.identifier, width);
      const player = page.locator('.bf-player');
      await player.locator('.bf-slot-current video').waitFor({ state: 'attached' });
      expect(await page.evaluate(() => localStorage.getItem('branchify:captions'))).toBeNull();

      // Keyboard only: play, then pause a moment in (the cues run the whole clip).
      await tabTo(page, /^Play$/);
      await page.keyboard.press('Enter');
      await until(() => player.evaluate((el) => el.getAttribute('data-state') === 'playing'), 'the video to play');
      await tabTo(page, /^Captions: Off$/);
      await page.keyboard.press('k');
      await until(() => player.evaluate((el) => el.getAttribute('data-state') === 'ready'), 'the video to pause');
      expect(await focusedLabel(page)).toBe('Captions: Off');
      expect(await page.locator('.bf-captions').count()).toBe(0);

      // Enter opens the menu on the checked item; the arrow moves; Enter chooses.
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu', { name: 'Captions' });
      await menu.waitFor();
      expect(await menu.getByRole('menuitemradio').allInnerTexts()).toEqual(['Off', 'English', 'Français']);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Off');
      expect(await page.getByRole('button', { name: 'Captions: Off' }).getAttribute('aria-expanded')).toBe('true');
      await shot(page, `captions-player-menu-${width}`);
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('English');
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'detached' });
      expect(await focusedLabel(page)).toBe('Captions: English');
      await until(async () => (await cueText(page)) === 'Hello viewer', 'the English cue');
      expect(await page.locator('.bf-captions b').innerText()).toBe('viewer');
      expect(await page.locator('.bf-captions').getAttribute('lang')).toBe('en');
      await shot(page, `captions-player-english-${width}`);

      // The second language: the arrow key opens the menu too; Escape would close it untouched.
      await page.keyboard.press('ArrowDown');
      await menu.waitFor();
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expect(await focusedLabel(page)).toBe('Captions: English');
      await page.keyboard.press('Enter');
      await menu.waitFor();
      // The menu moves focus to the chosen track once it is drawn (a frame later under load).
      await until(async () => (await page.evaluate(() => document.activeElement?.textContent)) === 'English', 'focus on the chosen track');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await until(async () => (await cueText(page)) === 'Bonjour spectateur', 'the French cue').catch(async (e: Error) => {
        throw new Error(
          `${e.message}: cue ${await cueText(page).catch(() => '-')}, focus ${await focusedLabel(page)}, state ${await player.getAttribute('data-state')}`,
        );
      });
      expect(await page.locator('.bf-captions i').innerText()).toBe('spectateur');
      expect(await focusedLabel(page)).toBe('Captions: Français');

      // The cue is over the video, inside the player, above the elements' layer.
      const cue = await page.locator('.bf-cue').boundingBox();
      const box = await player.boundingBox();
      expect(cue!.y).toBeGreaterThan(box!.y);
      expect(cue!.y + cue!.height).toBeLessThan(box!.y + box!.height);
      expect(await page.locator('.bf-captions').evaluate((el) => getComputedStyle(el).zIndex)).toBe('3');
      await shot(page, `captions-player-french-${width}`);
      expect(await page.evaluate(() => localStorage.getItem('branchify:captions'))).toBe('{"language":"fr"}');

      // A reload starts with the viewer's language.
      await page.reload();
      await page.getByRole('button', { name: 'Captions: Français' }).waitFor();
      await until(async () => (await cueText(page)) === 'Bonjour spectateur', 'the remembered French cue after a reload');
      await shot(page, `captions-player-remembered-${width}`);

      // The second cue, later in the clip, is text too: nothing in it ran.
      await tabTo(page, /^Seek$/);
      await page.keyboard.press('ArrowRight');
      await until(async () => (await cueText(page)) === 'Encore du texte', 'the second French cue');
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('shows the tracks in the app’s funnel preview, which plays the funnel with the player view', async () => {
    const creator = await subscribedUser(admin, planId);
    const video = await addVideo(creator, { provider: 'generic', url: hostedMediaUrl('captions-preview'), title: 'Preview clip' });
    const uploaded = await creator.http
      .upload(`/api/videos/${video.id}/captions`, creator.token)
      .field('language', 'en')
      .field('label', 'English')
      .attach('file', Buffer.from(ENGLISH), 'english.vtt');
    expect(uploaded.status).toBe(201);
    const funnel = await createFunnel(creator, { title: 'Preview captions' });
    await creator.http.put(
      `/api/funnels/${funnel.id}`,
      { title: 'Preview captions', settings: { enable_resume_play: false }, videos: [{ id: video.id, editor_id: 'intro', elements: [] }] },
      creator.token,
    );
    const { page, context } = await openApp(browser);
    await routeMediaHost(context);
    await page.setViewportSize({ width: 1440, height: 900 });
    await loginViaUi(page, creator.email, creator.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${funnel.id}`);
    const preview = page.getByTestId('funnel-preview');
    // The clip plays at once, its controls hidden until the pointer comes over the player (a
    // hidden bar takes no clicks), as a mouse user reaches for them.
    await preview.hover();
    await preview.getByRole('button', { name: 'Captions: Off' }).click();
    await preview.getByRole('menuitemradio', { name: 'English' }).click();
    await until(async () => (await cueText(page)) === 'Hello viewer', 'the cue in the preview');
    await shot(page, 'captions-funnel-preview-1440');
    await context.close();
  });

  it('keeps the player page free of caption code for a funnel without tracks', async () => {
    const creator = await subscribedUser(admin, planId);
    const video = await addVideo(creator, { provider: 'generic', url: hostedMediaUrl('no-captions'), title: 'Plain' });
    const funnel = await createFunnel(creator);
    await creator.http.put(
      `/api/funnels/${funnel.id}`,
      { title: 'Plain', settings: { enable_resume_play: false }, videos: [{ id: video.id, editor_id: 'intro', elements: [] }] },
      creator.token,
    );
    const { page } = await openPlayer(funnel.identifier, 1440);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.reload();
    await page.locator('.bf-player[data-state="ready"]').waitFor();
    await page.locator('.bf-controls').waitFor();
    expect(await page.locator('.bf-cc').count()).toBe(0);
    expect(scripts.filter((s) => !/\/main-[\w-]+\.js$/.test(s))).toEqual([]);
    await page.context().close();
  });
});
