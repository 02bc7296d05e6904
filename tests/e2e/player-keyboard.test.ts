import { chromium, type Browser, type Page } from 'playwright-core';
import { baseUrl } from '../api/support/http';
import { freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { CHROMIUM, CHROMIUM_FLAGS } from '../harness/chromium';
import { shot, shotAtBothWidths, until } from './support/app';
import { describeBrowser } from './support/browser';
import { watchBrowser } from './support/console';
import { branchEl, publishFunnel } from './support/funnels';
import { startMediaServer, type MediaServer } from './support/media-server';

/**
 * The funnel player with the keyboard alone: Space and K play and pause wherever focus is in the
 * player (the page itself included), focus stays in the player after Play and after a branch, the
 * choices come before the control bar, the speed menu answers the keys the captions menu does, and
 * the resume question says what it resumes and takes Escape for "start over".
 */

let owner: Session;
let media: MediaServer;

const currentEditor = (page: Page) => page.locator('.bf-slot.bf-slot-current').getAttribute('data-editor-id');
const video = (page: Page) => page.locator('.bf-slot.bf-slot-current video');
const videoTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);
const videoPaused = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.paused);
const state = (page: Page) => page.locator('.bf-player').getAttribute('data-state');

/** What has focus, as a screen reader names it: its role and name, "page" for the body. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'page';
    const role = el.getAttribute('role') ?? (el.tagName === 'BUTTON' ? 'button' : el.tagName === 'INPUT' ? 'slider' : el.tagName.toLowerCase());
    return `${role} ${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}`;
  });

/** Tab presses from where focus is, each stop named, until focus leaves the player (at most `max`). */
const tabStops = async (page: Page, max = 16): Promise<string[]> => {
  const stops: string[] = [];
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (!(await page.evaluate(() => Boolean(document.activeElement?.closest('.bf-player'))))) break;
    stops.push(await focused(page));
  }
  return stops;
};

/** A funnel of two clips: the first asks at 1 s, its "Go on" leads to the second, which asks again. */
const twoClips = (key: string, settings = { enable_resume_play: false }) =>
  publishFunnel(owner, { 'Intro clip': media.url(`${key}-a`), 'Second clip': media.url(`${key}-b`) }, (ids) => ({
    title: 'Keyboard funnel',
    settings,
    videos: [
      {
        id: ids['Intro clip'],
        editor_id: 'intro',
        elements: [
          branchEl('ask', 'intro', 1, 11, [{ id: 'go', name: 'Go on', type: 'standard', onclick: 'branch', video: 'second', standard: { text: 'Go on' } }]),
        ],
      },
      {
        id: ids['Second clip'],
        editor_id: 'second',
        elements: [
          branchEl('again', 'second', 0, 11, [
            { id: 'back', name: 'Back', type: 'standard', onclick: 'branch', video: 'intro', standard: { text: 'Back to the start' } },
          ]),
        ],
      },
    ],
  }));

describeBrowser('the player with the keyboard alone', () => {
  let browser: Browser;
  beforeAll(async () => {
    const admin = await adminSession();
    owner = await subscribedUser(admin, (await freePlan(admin)).id);
    media = await startMediaServer();
    // Autoplay refused until the viewer acts, as most browsers do on a first visit: the Play button waits.
    browser = watchBrowser(
      await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, '--autoplay-policy=document-user-activation-required'] }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await media?.close();
  });

  const open = async (reference: string, width = 1440) => {
    const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/player/${reference}`);
    return { context, page };
  };

  it('at 1440 px: Space and K anywhere in the player, focus kept after Play and a branch, choices before the controls', async () => {
    const { reference } = await twoClips('keys');
    const { context, page } = await open(reference);
    const play = page.getByRole('button', { name: 'Play', exact: true }).first();
    await page.locator('.bf-bigplay').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await focused(page)).toBe('page');

    // The first Tab reaches the big Play button; Enter plays and focus stays on the bar's Pause.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button Play');
    await page.keyboard.press('Enter');
    await until(async () => (await state(page)) === 'playing', 'the video to play');
    expect(await focused(page)).toBe('button Pause');
    await shot(page, 'player-keyboard-after-play-1440');

    // Space on that button presses it once (not the button and the shortcut both).
    await page.keyboard.press('Space');
    await until(async () => (await state(page)) === 'ready', 'the pause');
    await new Promise((r) => setTimeout(r, 300));
    expect(await videoPaused(page)).toBe(true);
    expect(await focused(page)).toBe('button Play');

    // On the seek slider Space and K play and pause too.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('slider Seek');
    await page.keyboard.press('Space');
    await until(async () => !(await videoPaused(page)), 'Space on the slider to play');
    await page.keyboard.press('k');
    await until(() => videoPaused(page), 'K on the slider to pause');

    // With focus on the page itself (a reload), Space plays and K pauses.
    await page.reload();
    await page.locator('.bf-bigplay').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await focused(page)).toBe('page');
    await page.keyboard.press('Space');
    await until(async () => (await state(page)) === 'playing', 'Space on the page to play');
    await page.getByRole('button', { name: 'Go on' }).waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('k');
    await until(async () => (await state(page)) === 'ready', 'K on the page to pause');
    expect(await play.isVisible()).toBe(true);

    // The choices come first in the tab order, before the control bar.
    expect(await focused(page)).toBe('page');
    const stops = await tabStops(page);
    expect(stops.slice(0, 3)).toEqual(['button Go on', 'button Play', 'slider Seek']);
    expect(stops).toEqual(['button Go on', 'button Play', 'slider Seek', 'button Settings', 'button Mute', 'slider Volume', 'button Fullscreen']);

    // A branch by keyboard: focus goes to the new video's player region, never to the page; Space
    // there plays and pauses the new video, and the next Tab is its choice.
    await page.getByRole('button', { name: 'Go on' }).focus();
    await page.keyboard.press('Enter');
    await until(async () => (await currentEditor(page)) === 'second', 'the second video');
    await until(async () => !(await videoPaused(page)), 'the second video to play');
    expect(await focused(page)).toBe('region Keyboard funnel');
    // Shown as focused: the keyboard moved it.
    expect(await page.locator('.bf-player').evaluate((el) => el.matches(':focus-visible'))).toBe(true);
    await shot(page, 'player-keyboard-after-branch-1440');
    await page.keyboard.press('Space');
    await until(() => videoPaused(page), 'Space in the region to pause');
    await page.keyboard.press('Space');
    await until(async () => !(await videoPaused(page)), 'Space in the region to play');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button Back to the start');
    await context.close();
  });

  it('at 1440 px: the speed menu moves focus, answers the arrow keys and closes on Escape, as the captions menu does', async () => {
    const { reference } = await twoClips('speed');
    const { context, page } = await open(reference);
    await page.locator('.bf-bigplay').waitFor({ state: 'visible', timeout: 15_000 });
    const settings = page.getByRole('button', { name: 'Settings' });
    const menu = page.getByRole('menu', { name: 'Playback speed' });
    await settings.focus();

    // Enter opens it on the checked speed; the arrows move; Escape closes it, focus back on the button.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    expect(await settings.getAttribute('aria-expanded')).toBe('true');
    const items = await menu.getByRole('menuitemradio').allInnerTexts();
    expect(items).toContain('Normal');
    expect(await focused(page)).toBe('menuitemradio Normal');
    const normal = items.indexOf('Normal');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe(`menuitemradio ${items[(normal + 1) % items.length]}`);
    await page.keyboard.press('End');
    expect(await focused(page)).toBe(`menuitemradio ${items.at(-1)}`);
    await page.keyboard.press('Home');
    expect(await focused(page)).toBe(`menuitemradio ${items[0]}`);
    await shot(page, 'player-keyboard-speed-menu-1440');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('button Settings');
    expect(await settings.getAttribute('aria-expanded')).toBe('false');

    // The arrow key opens it too; Enter on an item chooses that speed and returns to the button.
    await page.keyboard.press('ArrowDown');
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    const chosen = items[(normal + 1) % items.length]!;
    expect(await focused(page)).toBe(`menuitemradio ${chosen}`);
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('button Settings');
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(parseFloat(chosen));
    // Reopened, the chosen speed is the checked one, and Tab leaves the menu closed.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    expect(await menu.getByRole('menuitemradio', { checked: true }).innerText()).toBe(chosen);
    await page.keyboard.press('Tab');
    await menu.waitFor({ state: 'detached' });
    await context.close();
  });

  it('the resume question names the video and the time, and Escape starts over from the beginning', async () => {
    const { reference } = await twoClips('resume', { enable_resume_play: true });
    const { context, page } = await open(reference);
    await page.locator('.bf-bigplay').waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const go = page.getByRole('button', { name: 'Go on' });
    await go.waitFor({ state: 'visible', timeout: 10_000 });
    await go.focus();
    await page.keyboard.press('Enter');
    await until(async () => (await currentEditor(page)) === 'second' && (await videoTime(page)) > 2.2, 'the second video at 2 s');
    await page.reload(); // the position goes out as the page hides

    const dialog = page.getByRole('dialog', { name: 'Do you want to resume?' });
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    const where = await dialog.locator('#bf-resume-where').innerText();
    expect(where).toMatch(/^Yes resumes 'Second clip' at 0:0[2-9]\. No starts over from the beginning\.$/);
    expect(await dialog.getAttribute('aria-describedby')).toBe('bf-resume-where');
    expect(await focused(page)).toBe('button Yes');
    // Tab stays in the question.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button No');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button Yes');
    await shotAtBothWidths(page, 'player-keyboard-resume-question');

    // Escape: the question goes, the funnel starts over, focus stays in the player.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await until(async () => (await currentEditor(page)) === 'intro' && !(await videoPaused(page)), 'the funnel from its start');
    expect(await videoTime(page)).toBeLessThan(3);
    expect(await focused(page)).toBe('region Keyboard funnel');
    await context.close();
  });
});
