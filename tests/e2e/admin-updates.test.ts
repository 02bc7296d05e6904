import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { startFreshInstall, type FreshInstall } from '../harness/fresh-install';
import { feed, resetUpdates } from '../api/support/updates';
import { adminInBrowser, atTop } from './support/admin-browser';
import { expectAlert, expectConsoleErrors, launch, failedRequest, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

const WARNING =
  "Before updating, please ensure you haven't made any manual changes to the application outside of the update system. If you have modified files directly, please do not use this update function as it may overwrite your changes.";

/** The version the `current` switch points at, or null before any update. */
const installedRelease = (): string | null => {
  const manifest = path.join(process.env.UPDATES_DIR!, 'current', 'package.json');
  return fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version : null;
};

describeBrowser('admin: app update and help', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
    // Never updated, no license key (whatever another suite left), against the test update feed.
    await resetUpdates();
  });
  afterAll(async () => {
    await browser?.close();
    await resetUpdates();
  });

  it('asks for the license key, stays disabled when up to date, and downloads then applies with progress', async () => {
    const { page, context } = await adminInBrowser(browser);
    expectConsoleErrors(page, failedRequest(502, '/api/admin/updates/download'), 'a package that does not match its signed hash is refused');
    await feed('release', { version: '2.0.7' });
    await page.getByRole('menuitem', { name: 'App update' }).click();
    await waitForPath(page, '/admin/updates');
    await page.getByTestId('current-version').filter({ hasText: '2.0.7' }).waitFor();
    expect(await page.getByTestId('latest-version').textContent()).toBe('Unknown');
    expect(await page.getByTestId('license-key').textContent()).toBe('Not saved');
    expect(await page.getByTestId('update-warning').textContent()).toBe(WARNING);
    const update = page.getByRole('button', { name: 'Update to Latest Version' });
    // Without a key nobody knows the latest version: the button asks for the key.
    expect(await update.isEnabled()).toBe(true);
    await atTop(page);
    await shot(page, '190-updates-no-license-key');

    await update.click();
    const modal = page.locator('[data-modal="save-purchase-token"]');
    await modal.getByText('License key', { exact: true }).first().waitFor();
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('The license key field is required.').waitFor();
    await modal.getByLabel('License key (required)').fill('not a key');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('The license key may contain only letters, digits, dots, dashes and underscores (at least 4 characters).').waitFor();
    await atTop(page);
    await shot(page, '191-updates-license-key-refused');
    await modal.getByLabel('License key (required)').fill('BRFY-E2E-KEY-5678');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.licenseKeySaved);
    await modal.waitFor({ state: 'detached' });

    // The feed's latest is the running version: nothing to do, the button stays off.
    await page.getByTestId('license-key').filter({ hasText: '****-5678' }).waitFor();
    await page.getByTestId('latest-version').filter({ hasText: '2.0.7' }).waitFor();
    const status = page.getByTestId('update-status');
    await status.filter({ hasText: 'You are running the latest version.' }).waitFor();
    await status.filter({ hasText: /Last checked .+\./ }).waitFor();
    expect(await update.isDisabled()).toBe(true);
    await atTop(page);
    await shot(page, '192-updates-up-to-date');

    // "Check for updates" says what the feed answered, also when nothing changed.
    const check = page.getByRole('button', { name: 'Check for updates' });
    await check.click();
    await expectAlert(page, 'Checked for updates: You are running the latest version.');

    // A newer release appears.
    await feed('release', { version: '2.1.0' });
    await check.click();
    await expectAlert(page, 'Checked for updates: Version 2.1.0 is available.');
    await page.getByTestId('latest-version').filter({ hasText: '2.1.0' }).waitFor();
    await status.filter({ hasText: 'Version 2.1.0 is available.' }).waitFor();
    expect(await status.textContent()).not.toContain('You are running the latest version.');
    expect(await update.isEnabled()).toBe(true);

    // The feed cannot be reached: the check says so, and the page shows that instead of a version.
    await feed('mode', { mode: 'down' });
    await check.click();
    expect(await expectAlert(page, MESSAGES.updateFeedUnavailable)).toBe('error');
    await status.filter({ hasText: MESSAGES.updateFeedUnavailable }).waitFor();
    expect(await page.getByTestId('latest-version').textContent()).toBe('Unknown');
    await feed('mode', { mode: 'good' });
    await check.click();
    await status.filter({ hasText: 'Version 2.1.0 is available.' }).waitFor();

    // A package that does not match its signed hash is refused; nothing changes.
    await feed('mode', { mode: 'tampered' });
    await update.click();
    expect(await expectAlert(page, MESSAGES.updateVerificationFailed)).toBe('error');
    await page.getByTestId('update-progress').getByText(MESSAGES.updateVerificationFailed).waitFor();
    expect(installedRelease()).toBeNull();
    await atTop(page);
    await shot(page, '193-updates-refused-package');

    // The good package: the download (held back a moment, so its step can be seen), then apply.
    await feed('mode', { mode: 'good' });
    let releaseDownload: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      releaseDownload = resolve;
    });
    await page.route('**/api/admin/updates/download', async (route) => {
      await held;
      await route.continue();
    });
    await update.click();
    const progress = page.getByTestId('update-progress');
    await progress.getByText('Downloading and verifying version 2.1.0...', { exact: false }).waitFor();
    await progress.getByRole('progressbar', { name: 'Downloading' }).waitFor();
    expect(await update.isDisabled()).toBe(true);
    await atTop(page);
    await shot(page, '194-updates-downloading');
    releaseDownload();
    await expectAlert(page, MESSAGES.updateDownloaded);
    await expectAlert(page, MESSAGES.appUpdated);
    await progress.getByText(MESSAGES.updateApplied, { exact: false }).waitFor();
    expect(installedRelease()).toBe('2.1.0');
    // Installed: no newer version left.
    expect(await update.isDisabled()).toBe(true);
    await atTop(page);
    await shot(page, '195-updates-applied');

    // After a reload the page says a restart runs the new version.
    await page.reload();
    await page.getByText(`Version 2.1.0 is installed. ${MESSAGES.updateApplied}`).waitFor();
    expect(await page.getByRole('button', { name: 'Update to Latest Version' }).isDisabled()).toBe(true);
    await context.close();
  });

  it('help: the admin documentation overview links to each screen', async () => {
    const { page, context } = await adminInBrowser(browser, 'Hal');
    await page.getByRole('menuitem', { name: 'Help' }).click();
    await waitForPath(page, '/admin/help');
    for (const heading of ['Users', 'Plans', 'App Customizations', 'Integrations', 'App update', 'Running the installation']) {
      await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
    }
    await atTop(page);
    await shot(page, '198-help');
    await page.getByRole('link', { name: 'Email settings' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/integrations' && url.searchParams.get('tab') === '1');
    expect(await page.getByRole('tab', { name: 'Email' }).getAttribute('aria-selected')).toBe('true');
    await context.close();
  });
});

/** A server started without UPDATE_FEED_URL/UPDATE_PUBLIC_KEY: the screen says that, and only that. */
describeBrowser('admin: app update on a server without an update feed', () => {
  let install: FreshInstall;
  let browser: Browser;
  beforeAll(async () => {
    install = await startFreshInstall({ UPDATE_FEED_URL: '', UPDATE_PUBLIC_KEY: '' });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await install?.stop();
  });

  it('shows one state: updates are not configured; nothing to check or install', async () => {
    const password = 'no-feed-admin-pass-1';
    const res = await fetch(`${install.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Nia', last_name: 'Admin', email: 'nia@example.test', password, password_confirmation: password }),
    });
    expect(res.status).toBe(201);
    const context = await browser.newContext({ baseURL: install.url, viewport: { width: 1440, height: 900 } });
    const origin = new URL(install.url).origin;
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort('internetdisconnected'),
    );
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('input[name=email]').fill('nia@example.test');
    await page.locator('input[name=password]').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await waitForPath(page, /^\/admin\//);
    await page.goto('/admin/updates');

    // A saved key changes nothing: without a feed there is no latest version to compare with.
    await page.getByRole('button', { name: 'Add license key' }).click();
    const modal = page.locator('[data-modal="save-purchase-token"]');
    await modal.getByLabel('License key (required)').fill('BRFY-NO-FEED-1234');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.licenseKeySaved);
    await page.getByTestId('license-key').filter({ hasText: '****-1234' }).waitFor();

    const status = page.getByTestId('update-status');
    expect(await status.textContent()).toBe(MESSAGES.updatesNotConfigured);
    expect(await page.getByText('You are running the latest version.').count()).toBe(0);
    expect(await page.getByText('Save your license key to check for updates.').count()).toBe(0);
    expect(await page.getByTestId('latest-version').textContent()).toBe('Unknown');
    expect(await page.getByRole('button', { name: 'Check for updates' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Update to Latest Version' }).isDisabled()).toBe(true);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await atTop(page);
      await shot(page, `199-updates-not-configured-${width}`);
    }
    await context.close();
  });
});
