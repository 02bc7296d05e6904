import type { Browser } from 'playwright-core';
import { startFreshInstall, type FreshInstall } from '../harness/fresh-install';
import { describeBrowser, launchBrowser } from './support/browser';
import { shot, waitForPath } from './support/app';

const TTL_SECONDS = 30;

/**
 * The admin panel outlives its access token: a fresh install whose access tokens last 30 s, the
 * panel left open past that, then used again. It keeps working, renewing the token through the
 * refresh cookie, and never sends the admin back to the login page.
 *
 * The page's clock (Playwright's `page.clock`: Date and timers) is moved past the lifetime rather
 * than waited for. The panel judges the lapse by its own clock; the server's clock is not moved
 * (no door for that), so the test asks for the renewal itself: a refresh answered 200 after the
 * lapse. That a lapsed token is refused by the server is tests/security/tokens.test.ts's.
 */
describeBrowser('admin panel session', () => {
  let install: FreshInstall;
  let browser: Browser;
  beforeAll(async () => {
    install = await startFreshInstall({ ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await install?.stop();
  });

  it('keeps working past the access-token lifetime', async () => {
    const password = 'first-admin-pass-1';
    const res = await fetch(`${install.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Ada', last_name: 'Admin', email: 'ada@example.test', password, password_confirmation: password }),
    });
    expect(res.status).toBe(201);

    const context = await browser.newContext({ baseURL: install.url, viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const refreshes: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/refresh-token')) refreshes.push(r.status());
    });
    // The page's Date and timers under the test's hand; they run at real speed until moved.
    await page.clock.install();
    await page.goto('/login');
    await page.locator('input[name=email]').fill('ada@example.test');
    await page.locator('input[name=password]').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await waitForPath(page, /^\/admin\/users/);
    await page.getByText('ada@example.test').first().waitFor();
    const before = refreshes.length;

    await page.clock.fastForward((TTL_SECONDS + 5) * 1000);

    // Sorting the list asks the API again: the lapsed token is renewed first (no refused request
    // in the console), then the list is answered.
    const listed = page.waitForResponse((r) => r.url().includes('/api/admin/users?') && r.status() === 200);
    await page.getByText('Email', { exact: true }).first().click();
    await page.waitForURL((url) => url.search.includes('sort='));
    await listed;
    await page.getByText('ada@example.test').first().waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/users/);
    expect(refreshes.slice(before)).toContain(200);
    // The sort header's tooltip (shown while the pointer rests on it) is not part of the screen.
    await page.mouse.move(700, 840);
    await page.locator('.MuiTooltip-popper').waitFor({ state: 'detached' });
    await shot(page, '15-admin-after-token-expiry');
    await context.close();
  });
});
