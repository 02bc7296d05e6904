import type { Browser, Page } from 'playwright-core';
import { baseUrl } from '../api/support/http';
import { freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { useApiSuite } from '../api/support/suite';
import { shot, until } from './support/app';
import { describeBrowser, launchBrowser } from './support/browser';
import { branchEl, publishFunnel } from './support/funnels';
import { startMediaServer, type MediaServer } from './support/media-server';

const suite = useApiSuite();
let owner: Session;
let media: MediaServer;

const currentEditor = (page: Page) => page.locator('.bf-slot.bf-slot-current').getAttribute('data-editor-id');

/** A funnel whose first video asks, waits 10 s (the least there is) and then takes its one button by default. */
const waitingFunnel = (tag: string, showCountdown = true) =>
  publishFunnel(owner, { a: media.url(`countdown-${tag}-a`), b: media.url(`countdown-${tag}-b`) }, (ids) => ({
    title: 'Countdown',
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
            { pauseVideo: { enabled: true, duration: 10, showCountdown }, inaction: 'to-b' },
          ),
        ],
      },
      { id: ids.b, editor_id: 'second', elements: [] },
    ],
  }));

describeBrowser('the countdown of a wait for a choice', () => {
  let browser: Browser;
  beforeAll(async () => {
    const admin = await adminSession();
    owner = await subscribedUser(admin, (await freePlan(admin)).id);
    media = await startMediaServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await media?.close();
  });

  for (const width of [1440, 390]) {
    it(`at ${width} px: shows the time left, says it once, is paused by keyboard (the default waits), resumed, and the inaction says it was paused`, async () => {
      const { id: funnelId, reference } = await waitingFunnel(`w${width}`);
      const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/player/${reference}`);
      const countdown = page.getByTestId('bf-countdown');
      await countdown.waitFor({ state: 'visible', timeout: 20_000 });
      // A phone's player shows the short form.
      const phone = width < 500;
      await until(async () => (phone ? /^\d+ s/ : /Continuing with 'Next please' in \d+ s/).test(await countdown.innerText()), 'the time left');
      // Said once, with the choices, for a screen reader.
      await until(
        async () => (await page.getByRole('status').innerText()).includes("If you do not choose, 'Next please' is chosen in 10 seconds."),
        'the announcement',
      );

      // The keyboard reaches the pause control (after the choices) and presses it.
      await page.getByRole('region', { name: 'Countdown' }).focus();
      const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
      for (let i = 0; i < 12 && (await focusedName()) !== 'Pause countdown'; i += 1) await page.keyboard.press('Tab');
      expect(await focusedName()).toBe('Pause countdown');
      await page.keyboard.press('Enter');
      const toggle = countdown.getByRole('button', { name: 'Resume countdown' });
      await toggle.waitFor();
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      const left = await countdown.innerText();
      expect(left).toMatch(phone ? /^Paused: \d+ s/ : /Countdown paused: \d+ s left/);
      await shot(page, `480-countdown-paused-${width}`);

      // Longer than the whole wait: nothing moves while it is paused.
      await page.waitForTimeout(11_000);
      expect(await currentEditor(page)).toBe('intro');
      expect(await countdown.innerText()).toBe(left);

      // Resumed (the same button, by keyboard), the default is taken when the time left runs out.
      await page.keyboard.press('Enter');
      await countdown.getByRole('button', { name: 'Pause countdown' }).waitFor();
      await until(async () => (await currentEditor(page)) === 'second', 'the default path', 15_000);
      await page.goto('about:blank');
      await context.close();
      await until(async () => (await suite.db('branchify_funnel_interactions').where({ funnel_id: funnelId })).length > 0, 'the interaction row');
      const [row] = await suite.db('branchify_funnel_interactions').where({ funnel_id: funnelId });
      expect(row).toMatchObject({ node_id: 'to-b', connected_node: 'second', type: 'inaction' });
      expect(Boolean(row.countdown_paused)).toBe(true);
    });
  }

  it('hides the time when the creator says so, and still offers pause and more time; More time keeps the default away', async () => {
    const { reference } = await waitingFunnel('hidden', false);
    const context = await browser.newContext({ viewport: { width: 960, height: 540 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/player/${reference}`);
    const countdown = page.getByTestId('bf-countdown');
    await countdown.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await countdown.innerText()).not.toMatch(/\d+ s/);
    const more = countdown.getByRole('button', { name: 'More time: 30 seconds more' });
    await more.focus();
    await page.keyboard.press('Enter');
    // 10 s would have ended the wait; with 30 more it is still there.
    await page.waitForTimeout(11_000);
    expect(await currentEditor(page)).toBe('intro');
    await countdown.getByRole('button', { name: 'Pause countdown' }).waitFor();
    await shot(page, '481-countdown-hidden-time');
    await context.close();
  });
});
