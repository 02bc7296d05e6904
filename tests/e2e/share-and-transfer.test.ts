import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { freePlan, subscribedUser } from '../api/support/content';
import { baseUrl } from '../api/support/http';
import { PASSWORD, adminSession, verifiedUser, type Session } from '../api/support/users';
import { launch, loginViaUi, openApp, settled, shot, shotAtBothWidths, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { branchEl, publishFunnel, textEl } from './support/funnels';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

const VTT = 'WEBVTT\n\n00:00:00.500 --> 00:00:03.000\nHello viewer\n';

/** What sticks out sideways at this width: the page itself, and any visible element past the right edge. */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of document.querySelectorAll<HTMLElement>('main *')) {
      const box = el.getBoundingClientRect();
      if (box.width && box.right > width + 1)
        problems.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').slice(0, 40)}" ends at ${Math.round(box.right)}`);
    }
    return problems;
  });

describeBrowser('sharing, importing a copy, and settings on a phone', () => {
  let browser: Browser;
  let owner: Session;
  let funnel: { id: number; reference: string };
  const TITLE = `Share funnel ${Date.now().toString(36)}`;

  beforeAll(async () => {
    browser = await launch();
    const admin = await adminSession();
    owner = await subscribedUser(admin, (await freePlan(admin)).id);
    funnel = await publishFunnel(owner, { intro: hostedMediaUrl('share-intro'), next: hostedMediaUrl('share-next') }, (ids) => ({
      title: TITLE,
      variables: [
        { name: 'name', type: 'text', default: '', fromUrl: true },
        { name: 'score', type: 'number', default: 0, fromUrl: false },
      ],
      videos: [
        {
          id: ids.intro,
          editor_id: 'intro',
          elements: [
            textEl('hello', 'intro', 0, 20, 'Welcome'),
            branchEl('first', 'intro', 1, 10, [{ id: 'go-1', name: 'Next', onclick: 'branch', video: 'next', standard: { text: 'Next' } }]),
            branchEl('second', 'intro', 11, 20, [{ id: 'go-2', name: 'Again', onclick: 'branch', video: 'next', standard: { text: 'Again' } }]),
          ],
        },
        { id: ids.next, editor_id: 'next', elements: [] },
      ],
    }));
    const intro = (await owner.http.get(`/api/funnels/${funnel.id}`, owner.token)).body.data.videos[0].video.id as number;
    const track = await owner.http
      .upload(`/api/videos/${intro}/captions`, owner.token)
      .field('language', 'en')
      .field('label', 'English')
      .attach('file', Buffer.from(VTT), 'intro.vtt');
    expect(track.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shares the player link with a Copy button, says which variables the link sets, and embeds without a console warning', async () => {
    const { page, context } = await openApp(browser, { viewport: { width: 1440, height: 900 } });
    await routeMediaHost(context);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await loginViaUi(page, owner.email, PASSWORD);
    await waitForPath(page, '/funnels');
    await page.getByRole('button', { name: `Share ${TITLE}` }).click();
    const share = page.getByRole('dialog', { name: 'Share Funnel' });
    const link = `${baseUrl()}/player/${funnel.reference}`;
    expect(await share.getByRole('textbox', { name: 'Link' }).inputValue()).toBe(link);

    // The variables the link may set, and how: a query parameter, with an example.
    const variables = share.getByTestId('share-variables');
    await variables.getByText('Variables the link can set').waitFor();
    expect(await variables.innerText()).toContain(`${link}?name=Ann`);
    expect(await variables.getByRole('listitem').allInnerTexts()).toEqual(['name (text)']);

    // Copy link: what lands on the clipboard is the link, and the dialog says so.
    await share.getByRole('button', { name: 'Copy link' }).click();
    await share.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await shotAtBothWidths(page, '480-share-funnel-link');
    await share.getByRole('status').filter({ hasText: 'Copied' }).waitFor({ state: 'hidden', timeout: 4000 });

    // The embed code: fullscreen allowed once, by `allow`.
    const code = await share.getByTestId('embed-code').inputValue();
    expect(code).toContain(`src="${link}"`);
    expect(code).toContain('allow="autoplay; fullscreen; picture-in-picture"');
    expect(code).not.toContain('allowfullscreen');
    await share.getByRole('button', { name: 'Copy', exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await share.getByRole('button', { name: 'Close', exact: true }).click();

    // A host page on a site of its own with the code: the browser has nothing to warn about; with
    // both attributes it did.
    const warningsOf = async (html: string) => {
      const page = `<!doctype html><html lang="en"><title>Host</title><main><h1>Host</h1>${html}</main></html>`;
      const site = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page));
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const hostContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      await routeMediaHost(hostContext);
      const host = await hostContext.newPage();
      const seen: string[] = [];
      host.on('console', (m: ConsoleMessage) => seen.push(m.text()));
      await host.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      await host.frameLocator('iframe').locator('.bf-player, body').first().waitFor({ state: 'attached' });
      await settled(host);
      await hostContext.close();
      await new Promise((resolve) => site.close(resolve));
      return seen.filter((t) => /allowfullscreen/i.test(t));
    };
    expect(await warningsOf(code)).toEqual([]);
    const before = code.replace('></iframe>', ' allowfullscreen></iframe>');
    expect(await warningsOf(before)).toEqual([expect.stringContaining("Allow attribute will take precedence over 'allowfullscreen'")]);

    // The link opens the funnel's player.
    await page.goto(`${link}?name=Ann`);
    await page.locator('.bf-slot').first().waitFor({ state: 'attached', timeout: 15_000 });
    await context.close();
  });

  it('imports its own export under a title of its own, with the summary in words and the caption tracks it leaves out', async () => {
    const exported = await owner.http.get(`/api/funnels/${funnel.id}/export`, owner.token);
    expect(exported.status).toBe(200);
    const { page, context } = await openApp(browser, { viewport: { width: 1440, height: 900 } });
    await routeMediaHost(context);
    await loginViaUi(page, owner.email, PASSWORD);
    await waitForPath(page, '/funnels');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Funnel' });
    await dialog.locator('input[type=file]').setInputFiles({ name: 'share.funnel.json', mimeType: 'application/json', buffer: Buffer.from(exported.text) });
    const plan = dialog.getByTestId('import-plan');
    await plan.waitFor();
    const summary = await plan.innerText();
    expect(summary).toContain(`${TITLE} (copy)`);
    expect(summary).toContain('2 videos, 2 branches and 1 text element');
    // The intro already has its English track (it is the same library video): named, with the reason.
    const skipped = dialog.getByTestId('import-captions-skipped');
    expect(await skipped.innerText()).toContain('This caption track is not imported:');
    expect(await skipped.innerText()).toContain('intro: English (en). This video already has a caption track in en.');
    await shotAtBothWidths(page, '481-import-own-export');

    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await waitForPath(page, /^\/funnels\/\d+\/edit$/);
    await page.getByRole('link', { name: 'Funnels', exact: true }).click();
    await waitForPath(page, '/funnels');
    await page
      .getByTestId('funnel-row')
      .filter({ hasText: `${TITLE} (copy)` })
      .waitFor();
    await until(async () => (await page.getByTestId('funnel-row').filter({ hasText: TITLE }).count()) === 2, 'both funnels listed');
    await shot(page, '482-dashboard-after-import');
    await context.close();
  });

  it('wraps a 60-character email on Settings at 390 px: nothing scrolls sideways', async () => {
    const admin = await adminSession();
    const domain = '@example.test';
    const stamp = `wrap${Date.now().toString(36)}`;
    const email = `${stamp}${'x'.repeat(60 - domain.length - stamp.length)}${domain}`;
    expect(email).toHaveLength(60);
    const user = await verifiedUser({ email });
    const plan = await freePlan(admin);
    const sub = await admin.http.post(
      '/api/admin/subscriptions',
      { user_id: user.id, plan_id: plan.id, status: 'active', managed_by: 'platform' },
      admin.token,
    );
    expect(sub.status).toBe(201);

    const { page, context } = await openApp(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await loginViaUi(page, email, PASSWORD);
    await waitForPath(page, '/funnels');
    await page.goto('/settings');
    const profile = page.getByRole('region', { name: 'Profile' });
    const shown = profile.getByText(email);
    await shown.waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    // The whole address is on screen, over more than one line.
    const box = (await shown.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.height).toBeGreaterThan(30);
    await shot(page, '483-settings-long-email-390');

    await page.setViewportSize({ width: 1440, height: 900 });
    await shown.waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    await shot(page, '483-settings-long-email-1440');
    await context.close();
  });
});
