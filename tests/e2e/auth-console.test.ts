import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { freePlan, subscribedUser } from '../api/support/content';
import { PASSWORD, adminSession, uniqueEmail, type Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { publishFunnel } from './support/funnels';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

/**
 * The signed-out and not-yet-verified pages as a user meets them: the browser's console stays
 * clean (no failed request, no error), a visitor without a session never asks to refresh one, the
 * verify notice says only what happened, and a user suspended while signed in is told why.
 */

interface Trouble {
  failed: string[];
  errors: string[];
  refreshes: number;
}

/** Every failed request and console error from now on, and how often the session was refreshed. */
const watch = (page: Page): Trouble => {
  const trouble: Trouble = { failed: [], errors: [], refreshes: 0 };
  page.on('response', (res) => {
    if (res.status() >= 400) trouble.failed.push(`${res.request().method()} ${new URL(res.url()).pathname} → ${res.status()}`);
  });
  page.on('requestfailed', (req) => {
    // A load the test's own reload cancelled (chunks still arriving on a busy machine) did not fail.
    if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
    trouble.failed.push(`${req.method()} ${new URL(req.url()).pathname} failed`);
  });
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/auth/refresh-token') trouble.refreshes += 1;
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') trouble.errors.push(msg.text());
  });
  page.on('pageerror', (error) => trouble.errors.push(error.message));
  return trouble;
};

const quiet = async (page: Page): Promise<void> => {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
};

describeBrowser('web app: a clean console on the sign-in pages', () => {
  let browser: Browser;
  let admin: Session;
  let plan: { id: number };
  let mailerConfigured: boolean;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
    plan = await freePlan(admin);
    mailerConfigured = (await admin.http.get('/api/customizations')).body.data.mailer_configured as boolean;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows login and register to a visitor without asking to refresh a session that does not exist', async () => {
    const { page } = await openApp(browser);
    const trouble = watch(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await quiet(page);
    await page.goto('/register');
    await page.locator('input[name=first_name]').waitFor();
    await quiet(page);
    expect(trouble).toEqual({ failed: [], errors: [], refreshes: 0 });
  });

  it('asks nothing it may not have on any page a visitor without a session opens', async () => {
    const { reference } = await publishFunnel(admin, { intro: hostedMediaUrl('console-intro') }, (ids) => ({
      title: 'Console check',
      videos: [{ id: ids.intro, editor_id: 'intro', elements: [] }],
    }));
    const { page, context } = await openApp(browser);
    await routeMediaHost(context);
    const trouble = watch(page);
    // The pages a visitor reaches by link, and the signed-in pages that send them to login.
    for (const [path, landing] of [
      ['/forgot-password', '/forgot-password'],
      ['/resend-password-reset-link', '/resend-password-reset-link'],
      ['/verify-notice', '/verify-notice'],
      ['/admin', '/login'],
      ['/funnels', '/login'],
    ] as const) {
      await page.goto(path);
      await waitForPath(page, landing);
      await page.locator('main, form').first().waitFor();
      await quiet(page);
    }
    // The public player page, its video from the stand-in media host.
    await page.goto(`/player/${reference}`);
    await page.locator('#branchify-player').waitFor();
    await quiet(page);
    expect(trouble).toEqual({ failed: [], errors: [], refreshes: 0 });
  });

  it('registers an unverified user onto a verify notice that says what happened, with a clean console', async () => {
    expect(mailerConfigured).toBe(false);
    const { page } = await openApp(browser);
    const trouble = watch(page);
    const email = uniqueEmail('unverified');
    await page.goto('/register');
    await page.locator('input[name=first_name]').fill('Una');
    await page.locator('input[name=last_name]').fill('Verified');
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.locator('input[name=password_confirmation]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await waitForPath(page, '/verify-notice');
    // No mailer on this server: nothing was sent, and the page does not say otherwise.
    await page.getByText(MESSAGES.verificationMailUnavailable, { exact: false }).waitFor();
    await page.getByText(email).waitFor();
    expect(await page.getByText(/We sent/).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Resend verification link' }).count()).toBe(0);
    await quiet(page);
    await shot(page, 'auth-1440-verify-notice-no-mailer');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'auth-390-verify-notice-no-mailer');

    // Reloaded: the session is restored and the notice asks for nothing it may not have.
    await page.reload();
    await page.getByText(MESSAGES.verificationMailUnavailable, { exact: false }).waitFor();
    await quiet(page);
    // The dashboard is not theirs yet: the guard sends them back without a refused call.
    await page.goto('/funnels');
    await waitForPath(page, '/verify-notice');
    await quiet(page);
    expect(trouble.failed).toEqual([]);
    expect(trouble.errors).toEqual([]);
  });

  it('signs a subscriber in onto the dashboard with a clean console', async () => {
    const user = await subscribedUser(admin, plan.id);
    const { page } = await openApp(browser);
    const trouble = watch(page);
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    await expectAlert(page, MESSAGES.welcomeBack);
    await quiet(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Funnels', level: 1 }).waitFor();
    await quiet(page);
    expect(trouble).toEqual({ failed: [], errors: [], refreshes: 1 });
  });

  it('tells a user suspended while signed in why they were signed out', async () => {
    const user = await subscribedUser(admin, plan.id);
    const { page } = await openApp(browser);
    expectConsoleErrors(
      page,
      /status of (401|403)\b.*\/api\//,
      'suspended while signed in: the calls under way, the session refresh and the second sign-in are refused',
    );
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    const res = await admin.http.put(
      `/api/admin/users/${user.id}`,
      { status: 'suspended', status_note: 'Chargebacks on every payment', current_status_ends_at: '' },
      admin.token,
    );
    expect(res.status).toBe(200);

    // Their next step in the app ends the session (or a call already under way did): the login
    // page says why.
    await page
      .getByRole('link', { name: 'Library' })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    await waitForPath(page, '/login');
    await page.getByText(MESSAGES.accountSuspended).waitFor();
    await shot(page, 'auth-1440-suspended-signed-out');

    // Signed out now; trying to sign in again says the same.
    await page.reload();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await loginViaUi(page, user.email, user.password);
    expect(await expectAlert(page, MESSAGES.accountSuspended)).toBe('error');
    await waitForPath(page, '/login');
  });
});
