import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { baseUrl } from '../api/support/http';
import { freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { expectConsoleErrors, failedRequest, shot, shotAtBothWidths, until } from './support/app';
import { describeBrowser, launchBrowser } from './support/browser';
import { branchEl, publishFunnel } from './support/funnels';
import { startMediaServer, type MediaServer } from './support/media-server';

/**
 * The funnel player as a screen reader hears it: the polite live region's text as choices appear
 * (none for an element whose choices are all hidden, the news when one appears later, no doubled
 * punctuation) and the groups of choices in the accessibility tree; and the unknown funnel's page,
 * which says its message once.
 */

let owner: Session;
let media: MediaServer;

/** The live region's text as it would be read. */
const spoken = (page: Page) => page.getByRole('status').evaluate((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim());

const videoPaused = (page: Page) => page.locator('.bf-slot.bf-slot-current video').evaluate((v: HTMLVideoElement) => v.paused);

/** K pauses the clip (its elements stay while the test reads them and takes its screenshots). */
const pause = async (page: Page) => {
  await page.keyboard.press('k');
  await until(() => videoPaused(page), 'the pause');
};

/** The accessible names of the player's groups of choices. */
const groups = (page: Page) =>
  page
    .locator('.bf-overlays')
    .getByRole('group')
    .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));

/**
 * A quiz on one clip, from 1 s: an offer whose "Yes please" raises the score, a members' element
 * whose two doors show from score 1 and 2, and an element shown from score 1 that raises it again.
 */
const quiz = () =>
  publishFunnel(owner, { a: media.url('sr-quiz') }, (ids) => ({
    title: 'Quiz',
    variables: [{ name: 'score', type: 'number', default: 0, fromUrl: false }],
    videos: [
      {
        id: ids.a,
        editor_id: 'intro',
        elements: [
          branchEl(
            'offer',
            'intro',
            1,
            11,
            [
              {
                id: 'yes',
                name: 'Yes',
                type: 'standard',
                onclick: 'timestamp',
                timestamp: { seconds: 2 },
                set: ['score + 1'],
                standard: { text: 'Yes please', position: { top: 40, left: 0 } },
              },
              {
                id: 'no',
                name: 'No',
                type: 'standard',
                onclick: 'timestamp',
                timestamp: { seconds: 2 },
                standard: { text: 'No thanks', position: { top: 90, left: 0 } },
              },
            ],
            {},
            'Do you want the offer?',
          ),
          {
            ...branchEl(
              'members',
              'intro',
              1,
              11,
              [
                {
                  id: 'door',
                  name: 'Door',
                  type: 'standard',
                  onclick: 'url',
                  externalLink: 'https://example.com/',
                  when: 'score >= 1',
                  standard: { text: 'Secret door', position: { top: 40, left: 0 } },
                },
                {
                  id: 'vip',
                  name: 'VIP',
                  type: 'standard',
                  onclick: 'url',
                  externalLink: 'https://example.com/',
                  when: 'score >= 2',
                  standard: { text: 'VIP room', position: { top: 90, left: 0 } },
                },
              ],
              {},
              'Members only',
            ),
            position: { top: 20, left: 360 },
          },
          {
            ...branchEl(
              'more',
              'intro',
              1,
              11,
              [
                {
                  id: 'again',
                  name: 'Again',
                  type: 'standard',
                  onclick: 'timestamp',
                  timestamp: { seconds: 3 },
                  set: ['score + 1'],
                  standard: { text: 'Raise it again', position: { top: 40, left: 0 } },
                },
              ],
              {},
              'Once more?',
            ),
            when: 'score >= 1',
            position: { top: 240, left: 360 },
          },
        ],
      },
    ],
  }));

describeBrowser('the player for a screen reader', () => {
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

  it('at 1440 px: says the visible choices once, with the prompt’s own punctuation, nothing for hidden ones, and a choice that appears later', async () => {
    const { reference } = await quiz();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/player/${reference}`);
    const player = page.getByRole('region', { name: 'Quiz' });
    const yes = page.getByRole('button', { name: 'Yes please' });
    await yes.waitFor({ state: 'visible', timeout: 15_000 });

    // The offer is said with its question mark alone; the members' element, all hidden, says nothing
    // and is no group.
    await until(async () => (await spoken(page)) === 'Do you want the offer? 2 choices: Yes please, No thanks.', 'the offer said');
    await pause(page);
    expect(await groups(page)).toEqual(['Do you want the offer?']);
    expect(await page.locator('[data-element-id="members"]').getByRole('group').count()).toBe(0);
    expect(await player.ariaSnapshot()).not.toMatch(/Choices|Members only/);
    await shot(page, 'player-screen-reader-hidden-choices-1440');

    // Yes: the score is 1. The members' first door appears, said with its prompt, and so does the
    // element shown from score 1.
    await yes.focus();
    await page.keyboard.press('Enter');
    const door = page.getByRole('button', { name: 'Secret door' });
    await door.waitFor({ state: 'visible', timeout: 5000 });
    await until(async () => (await spoken(page)).includes('Members only. 1 choice: Secret door.'), 'the door said');
    await pause(page);
    expect(await spoken(page)).toContain('Once more? 1 choice: Raise it again.');
    expect(await groups(page)).toEqual(['Members only', 'Once more?']);
    const snapshot = await player.ariaSnapshot();
    expect(snapshot).toContain('group "Members only"');
    expect(snapshot).toContain('button "Secret door"');

    // Again (the clip plays on from 3 s): the score is 2. The second door is news of an element already there.
    await page.getByRole('button', { name: 'Raise it again' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'VIP room' }).waitFor({ state: 'visible', timeout: 5000 });
    await until(async () => (await spoken(page)) === 'Members only. New choice: VIP room.', 'the new door said');
    expect(await spoken(page)).not.toMatch(/[?!.]\./);
    expect(await groups(page)).toEqual(['Members only']);
    await pause(page);
    await shot(page, 'player-screen-reader-choice-appeared-1440');
    await context.close();
  });

  it('the page of an unknown funnel says it is not available once', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    expectConsoleErrors(page, failedRequest(404, '/player/'), 'the unknown funnel’s page is a 404, as it should be');
    await page.goto(`${baseUrl()}/player/NoSuchFunnelReference1`);
    const tree = await page.locator('body').ariaSnapshot();
    // One heading and its paragraph: the message once, its first sentence as the heading.
    expect(tree.split('This funnel is not available').length - 1).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('This funnel is not available.');
    expect((await page.getByRole('main').innerText()).replace(/\s+/g, ' ')).toBe(MESSAGES.funnelUnavailable);
    // No live region repeats it.
    expect(await page.locator('[aria-live], [role="status"], [role="alert"]').count()).toBe(0);
    await shotAtBothWidths(page, 'player-unavailable');
    await context.close();
  });
});
