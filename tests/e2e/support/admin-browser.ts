import type { Browser, Page } from 'playwright-core';
import { PASSWORD, adminSession, uniqueEmail, type Session } from '../../api/support/users';
import { loginViaUi, openApp, waitForPath, type AppPage } from './app';

export interface AdminPage extends AppPage {
  /** The install's first admin, for API calls beside the browser (setup, restoring shared state). */
  api: Session;
  email: string;
}

/**
 * A browser signed in as an admin of its own (created by the install's first admin), so a suite
 * never spends the first admin's login limit and its session is its own.
 */
export const adminInBrowser = async (browser: Browser, firstName = 'Sam'): Promise<AdminPage> => {
  const api = await adminSession();
  const email = uniqueEmail('admin');
  const res = await api.http.post(
    '/api/admin/users',
    { first_name: firstName, last_name: 'Settings', email, password: PASSWORD, password_confirmation: PASSWORD, is_admin: true },
    api.token,
  );
  if (res.status !== 201) throw new Error(`admin create failed: ${res.status} ${JSON.stringify(res.body)}`);
  const app = await openApp(browser);
  await loginViaUi(app.page, email, PASSWORD);
  await waitForPath(app.page, /^\/admin\/users/);
  return { ...app, api, email };
};

/**
 * Before a screenshot: the page at its top (a scrolled page pushes the panel's fixed parts
 * around) and nothing being fetched (react-admin's app-bar spinner has no accessible name).
 */
export const atTop = async (page: Page): Promise<void> => {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('.RaLoadingIndicator-loader').waitFor({ state: 'detached' });
};

/** Below this width the panel's menu is a drawer behind a menu button of its own (the app's `md` breakpoint). */
const NARROW_BELOW = 900;

/**
 * Resizes the window and waits until the panel has laid itself out for the new width (the narrow
 * screen's menu button shown or gone): a click right after a resize could otherwise land
 * where a button was before the layout moved it.
 */
export const resizeTo = async (page: Page, width: number, height = 900): Promise<void> => {
  await page.setViewportSize({ width, height });
  // The narrow screen's button controls the menu drawer (react-admin's own button, also "Open menu", does not).
  await page.locator('button[aria-controls="admin-menu"]').waitFor({ state: width < NARROW_BELOW ? 'attached' : 'detached' });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
};
