import type { Browser } from 'playwright-core';
import { adminInBrowser, atTop } from './support/admin-browser';
import { launch, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { eventually } from '../api/support/poll';

/**
 * Finding one's way as an admin: the browser tab names the screen and the app as branded, the
 * admin panel and the creator area link to each other, and Help covers every screen of the sidebar.
 */
describeBrowser('admin: titles, the way between panel and creator area, Help', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("names each admin screen in the browser tab with the branding's app name", async () => {
    const { page, context, api } = await adminInBrowser(browser, 'Tia');
    const rebrand = (app_name: string) => api.http.post('/api/admin/customizations', { app_name }, api.token);
    expect((await rebrand('Acme Funnels')).status).toBe(200);
    try {
      const me = (await api.http.get('/api/auth/user', api.token)).body.data as { id: number; first_name: string; last_name: string };
      const screens: Array<[string, string]> = [
        ['/admin/users', 'Users'],
        [`/admin/users/${me.id}`, `${me.first_name} ${me.last_name}`],
        ['/admin/plans', 'Plans'],
        ['/admin/app-customization', 'App Customizations'],
        ['/admin/integrations', 'Integrations'],
        ['/admin/webhooks', 'Webhooks'],
        ['/admin/updates', 'App update'],
        ['/admin/help', 'Help'],
      ];
      await page.reload();
      for (const [path, title] of screens) {
        await page.goto(path);
        const expected = `${title} | Acme Funnels`;
        await page
          .waitForFunction((t) => document.title === t, expected, { timeout: 10_000 })
          .catch(async () => {
            throw new Error(`${path}: the title is "${await page.title()}", not "${expected}"`);
          });
      }
    } finally {
      await rebrand('branchify');
    }
    await context.close();
  });

  it('asks for the setup status once when the panel opens, and again on coming back from another screen', async () => {
    const { page, context } = await adminInBrowser(browser, 'Ona');
    const asked: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/admin/setup') asked.push(req.method());
    });
    // The panel's root redirects to the users list: one question, not one per address.
    await page.goto('/admin');
    await waitForPath(page, /^\/admin\/users/);
    await page.waitForFunction(() => document.title.startsWith('Users'));
    await atTop(page);
    expect(asked).toEqual(['GET']);
    await page.goto('/admin/plans');
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await waitForPath(page, /^\/admin\/users/);
    expect(
      await eventually(
        async () => asked.length,
        (n) => n >= 2,
      ),
    ).toBeGreaterThanOrEqual(2);
    await context.close();
  });

  it('links the admin panel and the creator area both ways', async () => {
    const { page, context } = await adminInBrowser(browser, 'Lin');
    const toCreator = page.getByRole('menuitem', { name: 'Creator area' });
    await toCreator.waitFor();
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await atTop(page);
      await shot(page, `115-admin-menu-creator-area-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await toCreator.click();
    await waitForPath(page, '/funnels');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const toAdmin = nav.getByRole('link', { name: 'Admin panel' });
    await toAdmin.waitFor();
    await shot(page, '116-creator-area-admin-link-1440');
    await toAdmin.click();
    await waitForPath(page, '/admin/users');
    await page.getByRole('menuitem', { name: 'Creator area' }).waitFor();
    await context.close();
  });

  it('Help covers Webhooks, with links to the screen', async () => {
    const { page, context } = await adminInBrowser(browser, 'Hew');
    await page.goto('/admin/help');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
    await section.getByText('signed with the endpoint', { exact: false }).waitFor();
    await atTop(page);
    await shot(page, '117-help-webhooks');
    await section.getByRole('link', { name: 'Open Webhooks' }).click();
    await waitForPath(page, '/admin/webhooks');
    await context.close();
  });
});
