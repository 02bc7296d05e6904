import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { baseUrl } from '../api/support/http';
import { createPlan } from '../api/support/stripe';
import { PASSWORD, verifiedUser } from '../api/support/users';
import { adminInBrowser } from './support/admin-browser';
import { launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { useApiSuite } from '../api/support/suite';
import { runScript } from '../api/support/run-script';

const script = path.join(__dirname, '..', '..', 'scripts', 'seed.js');

const suite = useApiSuite();
let reference: string;

beforeAll(async () => {
  // As an operator would after `npm start`: the seed, with the server's address as PUBLIC_URL.
  const seeded = await runScript(script, ['--demo'], { env: { ...process.env, PUBLIC_URL: baseUrl() } });
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  reference = /\/player\/([A-Za-z0-9]{24})/.exec(seeded.stdout)![1]!;
});
suite.cleanUp(async () => {
  const user = await suite.db('up_users').where({ email: 'demo@example.com' }).first();
  if (user) await suite.admin.http.delete(`/api/admin/users/${user.id}`, suite.admin.token);
  for (const plan of await suite.db('branchify_plans').where({ name: 'Demo', payment_schedule: 'free' })) {
    await suite.admin.http.delete(`/api/admin/plans/${plan.id}`, suite.admin.token);
  }
});

const current = (page: Page) => page.locator('.bf-slot.bf-slot-current');
const currentVideo = (page: Page) => current(page).locator('video');
const playing = async (page: Page, editorId: string, after = 0.5) =>
  (await current(page).getAttribute('data-editor-id')) === editorId &&
  (await currentVideo(page).evaluate((v: HTMLVideoElement, t: number) => !v.paused && v.currentTime > t, after));
const waitFor = async (fn: () => Promise<boolean>, what: string, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describeBrowser('the demo funnel (npm run seed -- --demo)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('plays from the app itself, offers two paths, and the chosen path plays (seekable), then leads back', async () => {
    const { page, context } = await openApp(browser);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const media: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/demo-media/')) media.push(r.status());
    });
    await page.goto(`/player/${reference}`);

    // A browser that refuses autoplay (no click yet) shows the play button: the viewer presses it.
    const bigPlay = page.locator('.bf-bigplay');
    await Promise.race([bigPlay.waitFor({ state: 'visible' }), waitFor(() => playing(page, 'intro', 0), 'the intro')]);
    if (await bigPlay.isVisible()) {
      await shot(page, '200-demo-funnel-ready');
      await bigPlay.click();
    }
    expect(await currentVideo(page).getAttribute('src')).toBe(`${baseUrl()}/demo-media/demo-intro.webm`);
    await waitFor(() => playing(page, 'intro'), 'the intro to play');

    // At 3 s the intro asks where to go, with one button per path.
    const group = page.getByRole('group', { name: 'Where would you like to go?' });
    await group.getByRole('button', { name: 'Show me around' }).waitFor({ state: 'visible', timeout: 10_000 });
    await shot(page, '201-demo-intro-choices');

    await group.getByRole('button', { name: 'See the plans' }).click();
    await waitFor(() => playing(page, 'plans'), 'the plans video to play');
    expect(await currentVideo(page).getAttribute('src')).toBe(`${baseUrl()}/demo-media/demo-plans.webm`);
    await shot(page, '202-demo-plans-playing');

    // Served with byte ranges, so the viewer can jump ahead: the clip plays on from there.
    await currentVideo(page).evaluate((v: HTMLVideoElement) => {
      v.currentTime = 6;
    });
    await waitFor(() => playing(page, 'plans', 6.2), 'playback after seeking to 6 s');
    expect(media.some((status) => status === 206)).toBe(true);

    const back = page.getByRole('group', { name: 'Want to pick again?' }).getByRole('button', { name: 'Back to the start' });
    await back.waitFor({ state: 'visible', timeout: 10_000 });
    await shot(page, '203-demo-plans-back-to-start');
    await back.click();
    await waitFor(() => playing(page, 'intro'), 'the intro again');

    // The other path too.
    await page.getByRole('button', { name: 'Show me around' }).click({ timeout: 10_000 });
    await waitFor(() => playing(page, 'tour'), 'the tour video to play');
    expect(await currentVideo(page).getAttribute('src')).toBe(`${baseUrl()}/demo-media/demo-tour.webm`);
    await shot(page, '204-demo-tour-playing');

    expect(media.every((status) => status === 200 || status === 206)).toBe(true);
    expect(errors).toEqual([]);
    // Leaving the page sends what is still buffered (a beacon). The browser stays open meanwhile,
    // as a viewer's does: closing the context at once could cut the beacon off.
    await page.goto('about:blank');

    // The viewer's choices were recorded for the creator's analytics.
    const funnel = await suite.db('branchify_funnels').where({ identifier: reference }).first();
    await waitFor(async () => (await suite.db('branchify_funnel_interactions').where({ funnel_id: funnel.id })).length >= 3, 'the interactions', 10_000);
    await context.close();
    const interactions = await suite.db('branchify_funnel_interactions').where({ funnel_id: funnel.id }).orderBy('id');
    expect(interactions.map((i: { video_id: string; connected_node: string }) => [i.video_id, i.connected_node])).toEqual([
      ['intro', 'plans'],
      ['plans', 'intro'],
      ['intro', 'tour'],
    ]);
  });

  it('is not offered on other users\' "Choose a plan" (the demo account holds it), and its texts follow the branding', async () => {
    const rebrand = (app_name: string) => suite.admin.http.post('/api/admin/customizations', { app_name }, suite.admin.token);
    const offered = await createPlan(suite.admin, { name: `Starter ${Date.now()}`, price: '0', payment_schedule: 'free' });
    expect((await rebrand('Acme Funnels')).status).toBe(200);
    try {
      // A new user sees the admin's plans, not the demo account's.
      const user = await verifiedUser();
      const { page, context } = await openApp(browser);
      await loginViaUi(page, user.email, PASSWORD);
      await waitForPath(page, '/settings/select-plan');
      const cards = page.getByTestId('plan-card');
      await cards.filter({ hasText: offered.name }).waitFor();
      expect(await cards.getByRole('heading', { name: 'Demo', exact: true }).count()).toBe(0);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await shot(page, `205-demo-plan-not-offered-${width}`);
      }
      await context.close();

      // The demo account still holds it.
      const demo = await openApp(browser);
      await loginViaUi(demo.page, 'demo@example.com', 'branchify-demo');
      await waitForPath(demo.page, '/funnels');
      await demo.page.goto('/settings');
      await demo.page.getByText('Demo', { exact: true }).first().waitFor();
      await demo.context.close();

      // What the seed stored does not name the app: after a rebrand the admin reads no old name.
      const { page: adminPage, context: adminContext } = await adminInBrowser(browser, 'Dee');
      const plan = await suite.db('branchify_plans').where({ name: 'Demo', payment_schedule: 'free' }).first();
      await adminPage.goto(`/admin/plans/${plan.id}`);
      const description = adminPage.getByLabel('Description');
      await description.waitFor();
      expect(await description.inputValue()).not.toMatch(/branchify/i);
      expect(await description.inputValue()).not.toBe('');
      await adminContext.close();
    } finally {
      await rebrand('branchify');
      await suite.admin.http.delete(`/api/admin/plans/${offered.id}`, suite.admin.token);
    }
  });
});
