import fs from 'node:fs';
import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { openDb } from '../api/support/db';
import { baseUrl } from '../api/support/http';
import { freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { expectConsoleErrors, failedRequest, launch, loginViaUi, openApp, shot, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { branchEl, publishFunnel } from './support/funnels';
import { startMediaServer, type MediaServer } from './support/media-server';

const button = (id: string, text: string, video: string) => ({ id, name: text, type: 'standard', onclick: 'branch', video, standard: { text } });

describeBrowser('funnel analytics screen', () => {
  let browser: Browser;
  let owner: Session;
  let media: MediaServer;
  let db: Knex;

  beforeAll(async () => {
    db = openDb();
    const admin = await adminSession();
    owner = await subscribedUser(admin, (await freePlan(admin)).id);
    media = await startMediaServer();
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await media?.close();
    await db?.destroy();
  });

  /** One viewer (a fresh browser: a new viewer token) watches the funnel and clicks `choice` on the first video. */
  const watch = async (reference: string, choice: string, then: string) => {
    const context = await browser.newContext({ viewport: { width: 960, height: 540 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/player/${reference}`);
    const playing = page.locator('.bf-player[data-state="playing"]');
    await page.locator('.bf-bigplay').or(playing).first().waitFor({ timeout: 15_000 });
    if (!(await playing.isVisible())) await page.locator('.bf-bigplay').click();
    // The buttons share one spot in this funnel: chosen by keyboard, as a viewer may.
    const option = page.getByRole('button', { name: choice });
    await option.waitFor({ state: 'visible', timeout: 15_000 });
    await option.focus();
    await page.keyboard.press('Enter');
    await until(async () => (await page.locator('.bf-slot.bf-slot-current').getAttribute('data-editor-id')) === then, `the ${then} video`);
    // Watch a little of the next video, then leave: the player sends the position as the page goes.
    await new Promise((r) => setTimeout(r, 1500));
    await page.goto('about:blank');
    await context.close();
  };

  const figure = (page: Page, label: string) => page.getByTestId(`figure-${label}`).locator('dd').innerText();

  it('shows the counts of what viewers did: views, clicks, each branch taken and where viewers stopped', async () => {
    const { id, reference } = await publishFunnel(
      owner,
      { intro: media.url('an-intro'), offer: media.url('an-offer'), story: media.url('an-story') },
      (ids) => ({
        title: 'Analytics funnel',
        videos: [
          {
            id: ids.intro,
            editor_id: 'intro',
            elements: [branchEl('ask', 'intro', 0.5, 10, [button('to-offer', 'Show me the offer', 'offer'), button('to-story', 'Tell me more', 'story')])],
          },
          { id: ids.offer, editor_id: 'offer', elements: [] },
          { id: ids.story, editor_id: 'story', elements: [] },
        ],
      }),
    );

    const { context, page } = await openApp(browser);
    await loginViaUi(page, owner.email, owner.password);
    await waitForPath(page, '/funnels');

    // Before anyone watched: the empty state, reached from the dashboard.
    await page.getByRole('button', { name: 'Analytics of Analytics funnel' }).click();
    await waitForPath(page, `/funnels/${id}/analytics`);
    await page.getByTestId('analytics-empty').waitFor();
    await expect(page.getByTestId('analytics-empty').innerText()).resolves.toContain('No views in this date range yet.');
    await shot(page, '230-analytics-empty');
    // Its way forward: sharing the funnel.
    await page.getByRole('button', { name: 'Share funnel' }).click();
    await page.locator('[data-modal="share-funnel"]').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('[data-modal="share-funnel"]').waitFor({ state: 'detached' });

    await watch(reference, 'Show me the offer', 'offer');
    await watch(reference, 'Show me the offer', 'offer');
    await watch(reference, 'Tell me more', 'story');
    await until(async () => (await db('branchify_funnel_interactions').where({ funnel_id: id })).length === 3, 'the three clicks', 20_000);
    await until(async () => (await db('branchify_funnel_views').where({ funnel_id: id }).whereNotNull('editor_id')).length === 3, 'the three views', 20_000);

    await page.reload();
    await page.getByTestId('analytics-report').waitFor();
    expect(await figure(page, 'Views')).toBe('3');
    expect(await figure(page, 'Unique viewers')).toBe('3');
    expect(await figure(page, 'Clicks')).toBe('3');
    await expect(page.getByTestId('chart-summary').innerText()).resolves.toMatch(
      /^3 views from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d, most on \d{4}-\d\d-\d\d \(3\)\.$/,
    );

    // The map: each branch with the views that took it and their share; each video with the views that stopped there.
    const map = page.getByRole('region', { name: 'Funnel map with view figures' });
    await expect(map.getByTestId('map-edge-stats-branch:intro:to-offer').innerText()).resolves.toBe('2 views · 67%');
    await expect(map.getByTestId('map-edge-stats-branch:intro:to-story').innerText()).resolves.toBe('1 view · 33%');
    await expect(map.getByTestId('map-node-stats-intro').innerText()).resolves.toBe('3 views · 0 stopped here');
    await expect(map.getByTestId('map-node-stats-offer').innerText()).resolves.toBe('2 views · 2 stopped here');
    await expect(map.getByTestId('map-node-stats-story').innerText()).resolves.toBe('1 view · 1 stopped here');
    await shot(page, '231-analytics-report');

    // The same figures as CSV for the range.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = fs.readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toMatch(/^record,/);
    expect(csv.filter((line) => line.startsWith('edge,') && line.includes('to-offer'))[0]).toContain('Show me the offer');
    expect(csv.some((line) => line.startsWith('summary,') && line.includes(',3,3,3,'))).toBe(true);

    // The chart's table alternative.
    await page.getByRole('button', { name: 'Show as table' }).click();
    const table = page.getByRole('table', { name: 'Views and clicks per day' });
    const today = new Date().toISOString().slice(0, 10);
    await expect(table.getByRole('row', { name: new RegExp(`^${today} 3 3$`) }).count()).resolves.toBe(1);
    await shot(page, '232-analytics-table');

    // Another range: nothing then.
    await page.getByRole('textbox', { name: 'Date range' }).click();
    const typeDate = async (name: string, digits: string) => {
      await page.getByRole('group', { name }).getByRole('spinbutton').first().click();
      await page.keyboard.type(digits);
    };
    await typeDate('From', '20200101');
    await typeDate('To', '20200131');
    await shot(page, '234-analytics-date-range');
    // The calendar's weeks start on Sunday.
    await page
      .getByRole('button', { name: /^Choose date/ })
      .last()
      .click();
    await expect(page.getByRole('columnheader').first().getAttribute('aria-label')).resolves.toBe('Sunday');
    await shot(page, '235-analytics-calendar');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('analytics-empty').waitFor();
    await expect(page.getByRole('textbox', { name: 'Date range' }).inputValue()).resolves.toBe('2020-01-01 – 2020-01-31');
    await context.close();
  });

  it('shows the viewers who left the funnel by a URL button on its link-out edge', async () => {
    const shopUrl = 'https://www.shop.example.com/deal';
    const { id, reference } = await publishFunnel(owner, { intro: media.url('an-link-intro'), offer: media.url('an-link-offer') }, (ids) => ({
      title: 'Link-out funnel',
      videos: [
        {
          id: ids.intro,
          editor_id: 'intro',
          elements: [
            branchEl('ask', 'intro', 0.5, 10, [
              button('to-offer', 'Show me the offer', 'offer'),
              { id: 'to-shop', name: 'Shop', type: 'standard', onclick: 'url', externalLink: shopUrl, standard: { text: 'Visit the shop' } },
            ]),
          ],
        },
        { id: ids.offer, editor_id: 'offer', elements: [] },
      ],
    }));

    // A viewer clicks the URL button: the shop opens in a new tab.
    const viewer = await browser.newContext({ viewport: { width: 960, height: 540 } });
    await viewer.route('https://www.shop.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Shop</title>' }));
    const player = await viewer.newPage();
    await player.goto(`${baseUrl()}/player/${reference}`);
    const playing = player.locator('.bf-player[data-state="playing"]');
    await player.locator('.bf-bigplay').or(playing).first().waitFor({ timeout: 15_000 });
    if (!(await playing.isVisible())) await player.locator('.bf-bigplay').click();
    const option = player.getByRole('button', { name: 'Visit the shop' });
    await option.waitFor({ state: 'visible', timeout: 15_000 });
    const [shop] = await Promise.all([viewer.waitForEvent('page'), option.click()]);
    await shop.waitForURL(shopUrl);
    await until(async () => (await db('branchify_funnel_interactions').where({ funnel_id: id })).length === 1, 'the click', 20_000);
    // Leaving the page sends the last position by beacon; the browser stays open until it lands.
    await player.goto('about:blank');
    await until(async () => (await db('branchify_funnel_views').where({ funnel_id: id }).whereNotNull('editor_id')).length === 1, 'the view', 20_000);
    await viewer.close();

    const { context, page } = await openApp(browser);
    await loginViaUi(page, owner.email, owner.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${id}/analytics`);
    await page.getByTestId('analytics-report').waitFor();
    const map = page.getByRole('region', { name: 'Funnel map with view figures' });
    await expect(map.getByTestId('map-edge-stats-branch:intro:to-shop').innerText()).resolves.toBe('1 view · 100%');
    await expect(map.getByTestId('map-edge-stats-branch:intro:to-offer').innerText()).resolves.toBe('0 views · 0%');
    await expect(map.getByTestId(`map-node-stats-link:${shopUrl}`).innerText()).resolves.toBe('1 view went out here');
    // Named with its figures for a screen reader, and reached by keyboard.
    const edge = map.getByRole('group', { name: "Branch 'Visit the shop' from intro to a link out to shop.example.com, 1 view (100%)" });
    await edge.focus();
    await map.getByRole('group', { name: `Link out of the funnel to shop.example.com (${shopUrl}), 1 view went out here` }).waitFor();
    await shot(page, '237-analytics-link-out');
    await context.close();
  });

  it('shows loading while the figures load, a failure with Retry, and the figures on Retry', async () => {
    const { id } = await publishFunnel(owner, { intro: media.url('an-fail') }, (ids) => ({ videos: [{ id: ids.intro, editor_id: 'intro', elements: [] }] }));
    const { context, page } = await openApp(browser);
    expectConsoleErrors(page, failedRequest(500, `/api/funnels/${id}/analytics`), 'the test fails the figures on purpose until Retry');
    await loginViaUi(page, owner.email, owner.password);
    await waitForPath(page, '/funnels');
    let fail = true;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/funnels/${id}/analytics`, async (route) => {
      if (!fail) return route.continue();
      await held;
      return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'An Error Occurred' }) });
    });
    await page.goto(`/funnels/${id}/analytics`);
    await page.getByRole('progressbar', { name: 'Loading analytics' }).waitFor();
    await shot(page, '236-analytics-loading');
    release();
    await page.getByRole('button', { name: 'Retry' }).waitFor({ timeout: 20_000 });
    await expect(page.getByRole('status').filter({ hasText: 'An Error Occurred' }).count()).resolves.toBe(1);
    await shot(page, '233-analytics-error');
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('analytics-empty').waitFor();
    await context.close();
  });
});
