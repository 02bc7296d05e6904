import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { expectConsoleErrorsForLife } from './console';
import { baseUrl, newIp } from '../../api/support/http';
import { adminSession, type Session } from '../../api/support/users';

/**
 * Browser support for the web-app suites: Debian's Chromium through playwright-core, one context
 * per test with its own client address (the server runs as if behind one proxy hop, so rate limits
 * of one test never reach another), and screenshots under e2e/screenshots/ for a reviewer.
 */

export { expectConsoleErrors, failedRequest } from './console';

const SCREENSHOTS = path.join(__dirname, '..', 'screenshots');
const APP_INDEX = path.join(__dirname, '..', '..', '..', 'cms', 'public', 'build', 'app', 'index.html');

export const launch = async (): Promise<Browser> => {
  if (!fs.existsSync(APP_INDEX)) throw new Error(`the web app is not built (${APP_INDEX}): run \`npm run build -w @branchify/frontend\``);
  return launchBrowser({ autoplay: false });
};

export interface AppPage {
  context: BrowserContext;
  page: Page;
  ip: string;
}

/** The browser's line for a load from YouTube's or Vimeo's servers that the context aborted. */
const VIDEO_PROVIDER_UNREACHABLE = /net::ERR_INTERNET_DISCONNECTED \(https:\/\/([a-z0-9-]+\.)*(youtube\.com|ytimg\.com|vimeo\.com|vimeocdn\.com)\//;

/** A fresh browser context (no cookies) on the app's origin; `device` sets its screen and input (a touch screen, say). */
export const openApp = async (browser: Browser, device: Pick<BrowserContextOptions, 'viewport' | 'hasTouch' | 'isMobile'> = {}): Promise<AppPage> => {
  const ip = newIp();
  const context = await browser.newContext({
    baseURL: baseUrl(),
    extraHTTPHeaders: { 'X-Forwarded-For': ip },
    viewport: { width: 1280, height: 860 },
    ...device,
  });
  // Nothing outside the test server is reachable: fail those requests at once instead of waiting.
  const origin = new URL(baseUrl()).origin;
  await context.route(
    (url) => url.origin !== origin && !url.hostname.endsWith('.test'),
    (route) => route.abort('internetdisconnected'),
  );
  expectConsoleErrorsForLife(
    context,
    VIDEO_PROVIDER_UNREACHABLE,
    "the video providers' servers are out of this browser's reach (aborted above); the app's answer to that is tested",
  );
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page, ip };
};

let axeSource: string | null = null;
const AXE_SOURCE = (): string => (axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is; serious and critical
 * violations fail the test, naming the rule and the elements.
 */
const expectAccessible = async (page: Page, name: string): Promise<void> => {
  // Evaluated through the DevTools protocol: the page's CSP (rightly) refuses injected script tags.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE());
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${name}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`)).toEqual([]);
};

/** Once the page's finite animations (transitions) have run, or 5 s; endless ones (spinners) are not waited for. */
export const settled = (page: Page): Promise<unknown> =>
  page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 5000 },
    )
    .catch(() => undefined);

/** A screenshot for a reviewer, and an accessibility audit of the same screen. */
export const shot = async (page: Page, name: string): Promise<void> => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // Transitions settled (a button just enabled fades in): the audit reads the colours a user sees.
  await settled(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  await expectAccessible(page, name);
};

/** The path of the page's URL once it matches (client-side navigations included). */
/** Once the page's transitions have run, so a screenshot shows modals as the user sees them. */
export const still = (page: Page) => page.waitForFunction(() => document.getAnimations().length === 0);

/** The same screen at a desktop and a phone width, each audited. */
export const shotAtBothWidths = async (page: Page, name: string): Promise<void> => {
  const before = page.viewportSize();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `${name}-${width}`);
  }
  if (before) await page.setViewportSize(before);
};

/** Polls `fn` until it holds (a throw counts as not yet), or fails naming `what`. */
export const until = async (fn: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

export const waitForPath = async (page: Page, pathname: string | RegExp): Promise<void> => {
  await page.waitForURL((url) => (typeof pathname === 'string' ? url.pathname === pathname : pathname.test(url.pathname)));
};

export const loginViaUi = async (page: Page, email: string, password: string): Promise<void> => {
  await page.goto('/login');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
};

/** An admin signed in through the login form, on the admin panel's first page (the users list). */
export const openAdminPanel = async (browser: Browser): Promise<{ admin: Session; page: Page }> => {
  const admin = await adminSession();
  const { page } = await openApp(browser);
  await loginViaUi(page, admin.email, admin.password);
  await waitForPath(page, /^\/admin\/users/);
  return { admin, page };
};

/** The text of the alert banner with this message. */
export const expectAlert = async (page: Page, message: string): Promise<'error' | 'success'> => {
  const alert = page.getByTestId('alert').filter({ hasText: message }).first();
  await alert.waitFor();
  const cls = (await alert.getAttribute('class')) ?? '';
  return cls.includes('Error') ? 'error' : 'success';
};
