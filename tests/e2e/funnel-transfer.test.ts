import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { freePlan, subscribedUser } from '../api/support/content';
import { baseUrl } from '../api/support/http';
import { PASSWORD, adminSession, type Session } from '../api/support/users';
import { startFreshInstall, type FreshInstall } from '../harness/fresh-install';
import { expectConsoleErrors, failedRequest, launch, loginViaUi, openApp, settled, shot, shotAtBothWidths, until, waitForPath } from './support/app';
import { describeBrowser, launchBrowser } from './support/browser';
import { branchEl, publishFunnel, textEl } from './support/funnels';
import { startMediaServer, type MediaServer } from './support/media-server';

/**
 * A funnel leaves one install as a file (Export on the dashboard) and becomes a funnel of a second
 * account on a fresh install (Import), where it plays as it did at home.
 */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);
const TITLE = 'Transfer funnel';

/** JSON requests to another install (the fresh one), as its users make them. */
const call = async (base: string, method: string, path: string, body?: unknown, token?: string) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Record<string, unknown> & { access_token?: string; id?: number } };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
};

/** On the fresh install: its first account (the admin), a free plan, and a creator on it. */
const creatorOnFreshInstall = async (base: string) => {
  const password = 'fresh-admin-pass-1';
  const first = await call(base, 'POST', '/api/auth/register', {
    first_name: 'Fresh',
    last_name: 'Admin',
    email: 'fresh-admin@example.test',
    password,
    password_confirmation: password,
  });
  const token = first.access_token!;
  const plan = await call(
    base,
    'POST',
    '/api/admin/plans',
    {
      name: 'Starter',
      price: '0',
      currency: 'usd',
      payment_schedule: 'free',
      managed_by: 'platform',
      max_funnel: 5,
      max_branch_per_funnel: null,
      video_sources: null,
    },
    token,
  );
  const email = 'importer@example.test';
  const user = await call(
    base,
    'POST',
    '/api/admin/users',
    { first_name: 'Ivy', last_name: 'Importer', email, password: PASSWORD, password_confirmation: PASSWORD },
    token,
  );
  await call(base, 'POST', '/api/admin/subscriptions', { user_id: user.id, plan_id: plan.id, status: 'active', managed_by: 'platform' }, token);
  const login = await call(base, 'POST', '/api/auth/login', { email, password: PASSWORD });
  return { email, token: login.access_token! };
};

const currentVideo = (page: Page) => page.locator('.bf-slot.bf-slot-current').getAttribute('data-editor-id');

/**
 * What a viewer meets on each path of the funnel: the intro's buttons and text, then, for each
 * button, the video it leads to and the text shown there.
 */
const walkFunnel = async (browser: Browser, base: string, reference: string) => {
  const seen: Array<Record<string, unknown>> = [];
  for (const choice of ['See the offer', 'Say thanks']) {
    const context = await browser.newContext({ viewport: { width: 960, height: 540 } });
    const page = await context.newPage();
    await page.goto(`${base}/player/${reference}`);
    await page.locator('[data-element-id="hello"]').waitFor({ state: 'visible', timeout: 15_000 });
    const intro = { video: await currentVideo(page), text: await page.locator('[data-element-id="hello"]').innerText() };
    const button = page.getByRole('button', { name: choice });
    await button.waitFor({ state: 'visible', timeout: 15_000 });
    const buttons = await page
      .locator('[data-element-id="choice"] [role="button"], [data-element-id="choice"] button')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent?.trim()));
    const image = await page.locator('[data-element-id="choice"] img').count();
    await button.focus();
    await page.keyboard.press('Enter');
    await until(async () => (await currentVideo(page)) !== 'intro', `the video after '${choice}'`);
    const after = await currentVideo(page);
    const text = page.locator(`[data-element-id="${after}-text"]`);
    await text.waitFor({ state: 'visible', timeout: 10_000 });
    seen.push({ intro, buttons, image, choice, after, text: await text.innerText() });
    await context.close();
  }
  return seen;
};

describeBrowser('export and import in the browser', () => {
  let browser: Browser;
  /** Plays on its own (the app's browser does not autoplay): the viewer's browser. */
  let viewer: Browser;
  let media: MediaServer;
  let fresh: FreshInstall;
  let owner: Session;
  let reference: string;

  beforeAll(async () => {
    [browser, viewer, media, fresh] = await Promise.all([launch(), launchBrowser(), startMediaServer(), startFreshInstall()]);
    const admin = await adminSession();
    owner = await subscribedUser(admin, (await freePlan(admin)).id);
    const image = (await owner.http.upload('/api/uploads/images', owner.token).attach('image', PNG, 'thanks.png')).body.data.url as string;
    ({ reference } = await publishFunnel(
      owner,
      { intro: media.url('xfer-intro'), offer: media.url('xfer-offer'), thanks: media.url('xfer-thanks') },
      (ids) => ({
        title: TITLE,
        videos: [
          {
            id: ids.intro,
            editor_id: 'intro',
            elements: [
              textEl('hello', 'intro', 0, 20, 'Welcome aboard'),
              branchEl('choice', 'intro', 1, 20, [
                { id: 'to-offer', name: 'See the offer', type: 'standard', onclick: 'branch', video: 'offer', standard: { text: 'See the offer' } },
                { id: 'to-thanks', name: 'Say thanks', type: 'image', onclick: 'branch', video: 'thanks', image: { source: image, width: 80, height: 40 } },
              ]),
            ],
          },
          { id: ids.offer, editor_id: 'offer', elements: [textEl('offer-text', 'offer', 0, 20, 'Here is the offer')] },
          { id: ids.thanks, editor_id: 'thanks', elements: [textEl('thanks-text', 'thanks', 0, 20, 'Thank you')] },
        ],
      }),
    ));
  });
  afterAll(async () => {
    await browser?.close();
    await viewer?.close();
    await media?.close();
    await fresh?.stop();
  });

  it('exports from the dashboard, imports into a second account of a fresh install, and plays there identically', async () => {
    // Export, from the funnel's row on the dashboard.
    const home = await openApp(browser);
    await loginViaUi(home.page, owner.email, PASSWORD);
    await waitForPath(home.page, '/funnels');
    const [download] = await Promise.all([home.page.waitForEvent('download'), home.page.getByRole('button', { name: `Export ${TITLE}` }).click()]);
    expect(download.suggestedFilename()).toBe('transfer-funnel.funnel.json');
    const filePath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bf-export-')), download.suggestedFilename());
    await download.saveAs(filePath);
    const file = JSON.parse(fs.readFileSync(filePath, 'utf8')) as { format: string; library: unknown[]; images: unknown[] };
    expect(file).toMatchObject({ format: 'branchify.funnel', version: 2 });
    expect(file.library).toHaveLength(3);
    expect(file.images).toHaveLength(1);
    await home.context.close();

    // Import, as a creator of the fresh install, from the dashboard's Import button.
    const importer = await creatorOnFreshInstall(fresh.url);
    const context = await browser.newContext({ baseURL: fresh.url, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await loginViaUi(page, importer.email, PASSWORD);
    await waitForPath(page, '/funnels');
    await page.getByTestId('funnels-empty').waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Funnel' });
    await dialog.waitFor();
    await shotAtBothWidths(page, '470-import-funnel-empty');
    await dialog.locator('input[type=file]').setInputFiles(filePath);
    const plan = dialog.getByTestId('import-plan');
    await plan.waitFor();
    expect(await plan.innerText()).toMatch(
      /Transfer funnel[\s\S]*3 videos, 1 branch and 3 text elements, 1 image[\s\S]*Added to your library[\s\S]*intro \(Direct URL|intro/,
    );
    await shotAtBothWidths(page, '471-import-funnel-plan');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await waitForPath(page, /^\/funnels\/\d+\/edit$/);
    const funnelId = Number(/\/funnels\/(\d+)\/edit/.exec(page.url())![1]);
    const imported = await call(fresh.url, 'GET', `/api/funnels/${funnelId}`, undefined, importer.token);
    expect(imported.title).toBe(TITLE);
    await context.close();

    // The same paths, the same buttons, texts and videos, on both installs.
    const atHome = await walkFunnel(viewer, baseUrl(), reference);
    const there = await walkFunnel(viewer, fresh.url, imported.identifier as string);
    expect(atHome.map((s) => [s.choice, s.after, s.text])).toEqual([
      ['See the offer', 'offer', 'Here is the offer'],
      ['Say thanks', 'thanks', 'Thank you'],
    ]);
    expect(there).toEqual(atHome);
  });

  it('names what is wrong with a file, offers Upgrade Plan at a plan limit, and is driven by keyboard', async () => {
    const admin = await adminSession();
    const limited = await subscribedUser(admin, (await freePlan(admin, { max_branch_per_funnel: 0 })).id);
    const exported = JSON.parse(
      (await owner.http.get(`/api/funnels/${(await owner.http.get('/api/funnels', owner.token)).body.data.data[0].id}/export`, owner.token)).text,
    );
    const { page, context } = await openApp(browser);
    expectConsoleErrors(page, failedRequest(422, '/api/funnels/import?dry_run=true'), 'files it cannot import are refused');
    expectConsoleErrors(page, failedRequest(403, '/api/funnels/import?dry_run=true'), 'the plan refuses the import');
    await loginViaUi(page, limited.email, PASSWORD);
    await waitForPath(page, '/funnels');

    // Keyboard: Tab to Import, Enter opens the dialog, the file button opens the file chooser.
    const importButton = page.getByRole('button', { name: 'Import', exact: true });
    await importButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Import Funnel' });
    await dialog.waitFor();
    // Listening for the file chooser turns on its interception in the browser, a round trip of its
    // own: begun only with the Enter below, a loaded run's Enter could open the chooser before it.
    const chooserOpened = page.waitForEvent('filechooser', { timeout: 30_000 });
    // The dialog moves focus into itself when its opening transition ends: tab only after that, or
    // the focus the keys reached is taken back.
    await settled(page);
    const chooseFile = dialog.getByRole('button', { name: 'Choose file' });
    for (let i = 0; i < 6 && !(await chooseFile.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
    expect(await chooseFile.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const chooser = await chooserOpened;

    // A file that is no export: the reason, in the dialog.
    await chooser.setFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"world"}') });
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('This file is not a funnel export. Choose a .json file made with Export.');
    expect(await dialog.getByRole('button', { name: 'Import' }).isDisabled()).toBe(true);
    await shot(page, '472-import-funnel-not-an-export');

    // A broken file: the first problem in the message, with where it is.
    exported.funnel.videos[0].elements[1].data.branches[0].video = 'nowhere';
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await until(
      async () => (await alert.innerText()).includes('funnel.videos.0.elements.1.data.branches.0.video: must be a video of this funnel'),
      'the broken file named',
    );

    // Over the plan's limit: the spec's sentence and Upgrade Plan.
    exported.funnel.videos[0].elements[1].data.branches[0].video = 'offer';
    await dialog.locator('input[type=file]').setInputFiles({ name: 'ok.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await until(async () => (await alert.innerText()).includes('maximum number of branches'), 'the plan limit');
    await shotAtBothWidths(page, '473-import-funnel-plan-limit');
    await dialog.getByRole('button', { name: 'Upgrade Plan' }).click();
    await waitForPath(page, /plan/);
    expect(await limited.http.get('/api/funnels', limited.token).then((r) => r.body.data.data.length)).toBe(0);
    await context.close();
  });
});
