import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { createFunnel, freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { adminInBrowser, atTop } from './support/admin-browser';
import { launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { twoVideoFunnel } from './support/funnels';
import { routeMediaHost } from './support/media-server';

/**
 * Every page of the creator area and of the admin panel at a phone's width (390 px) and a desktop's
 * (1440 px): the page never scrolls sideways, nothing a user reads or presses is cut off at the
 * screen's edge (wide content scrolls inside its own box), and below the `md` breakpoint the
 * sidebar is a drawer behind a labelled menu button that opens and closes from the keyboard.
 */

const PHONE = { width: 390, height: 844 };
const TABLET = { width: 1024, height: 768 };
const DESKTOP = { width: 1440, height: 900 };
const WIDTHS = [
  ['1440', DESKTOP],
  ['390', PHONE],
] as const;

/**
 * What sticks out of the screen: the page's own sideways overflow, and every visible heading,
 * button, link, input and table cell whose box crosses the screen's edge without sitting in a box
 * that scrolls sideways (there the user can reach it), or whose text is clipped by its own box.
 */
const overflowOf = (page: Page) =>
  page.evaluate(() => {
    const doc = document.documentElement;
    const width = doc.clientWidth;
    const problems: string[] = [];
    if (doc.scrollWidth > width + 1) problems.push(`page scrolls sideways: ${doc.scrollWidth} > ${width}`);
    const scrollsSideways = (el: Element): boolean => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && p.scrollWidth > p.clientWidth) return true;
      }
      return false;
    };
    const describe = (el: Element): string => {
      const label = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}> "${label}"`;
    };
    const selector = 'h1, h2, h3, h4, h5, h6, button, a[href], input:not([type=hidden]), select, textarea, th, td, [role=button], [role=tab]';
    for (const el of Array.from(document.querySelectorAll(selector))) {
      const rect = el.getBoundingClientRect();
      // Visually hidden helpers (1 px boxes) and what is not shown take no room on screen.
      if (rect.width <= 2 || rect.height <= 2) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.opacity === '0') continue;
      if (el.closest('[aria-hidden=true]')) continue;
      // The funnel map is a canvas the user pans: videos past its edge are clipped by it, not by the screen.
      if (el.closest('.react-flow')) continue;
      if ((rect.left < -1 || rect.right > width + 1) && !scrollsSideways(el)) {
        problems.push(`${describe(el)} crosses the screen's edge (${Math.round(rect.left)}..${Math.round(rect.right)} of ${width})`);
      }
      if (/^H[1-6]$/.test(el.tagName) && el.scrollWidth > el.clientWidth + 1) problems.push(`${describe(el)} is cut off`);
    }
    return problems;
  });

/** Nothing left to fetch or to spin (a page still loading is narrower than the loaded one). */
const settle = async (page: Page): Promise<void> => {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  // Spinners only: the set-up checklist's progress bar (it has a value) stays.
  await page
    .locator('[role=progressbar]:not([aria-valuenow])')
    .first()
    .waitFor({ state: 'hidden', timeout: 5000 })
    .catch(() => undefined);
};

/** The page at this width: no sideways overflow, nothing cut off, a screenshot and axe. */
const expectFits = async (page: Page, name: string): Promise<void> => {
  await settle(page);
  const problems = await overflowOf(page);
  await shot(page, name);
  expect(problems).toEqual([]);
};

describeBrowser('phones: the creator area and the admin panel at 390 and 1440 px', () => {
  let browser: Browser;
  let admin: Session;
  let creator: Session;
  let funnelId: number;
  let planId: number;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
    const plan = await freePlan(admin, { video_sources: ['youtube', 'generic'] });
    planId = plan.id;
    creator = await subscribedUser(admin, plan.id);
    funnelId = (await createFunnel(creator, { title: 'A funnel with a rather long title that a phone has to wrap somewhere' })).id;
  });
  afterAll(async () => {
    await browser?.close();
  });

  const creatorPage = async (viewport: { width: number; height: number }): Promise<Page> => {
    const { page } = await openApp(browser);
    await page.setViewportSize(viewport);
    await loginViaUi(page, creator.email, creator.password);
    await waitForPath(page, '/funnels');
    return page;
  };

  for (const [label, viewport] of WIDTHS) {
    it(`shows the sign-in pages whole at ${label} px`, async () => {
      const { page } = await openApp(browser);
      await page.setViewportSize(viewport);
      const pages: Array<[string, string, () => Promise<unknown>]> = [
        ['login', '/login', () => page.getByRole('button', { name: 'Log in' }).waitFor()],
        ['register', '/register', () => page.getByRole('button', { name: 'Register' }).waitFor()],
        ['forgot-password', '/forgot-password', () => page.locator('input[name=email]').waitFor()],
      ];
      for (const [name, path, ready] of pages) {
        await page.goto(path);
        await ready();
        await expectFits(page, `phone-${label}-signin-${name}`);
      }
    });
  }

  for (const [label, viewport] of WIDTHS) {
    it(`shows every creator page without sideways overflow at ${label} px`, async () => {
      const page = await creatorPage(viewport);
      const pages: Array<[string, string, () => Promise<unknown>]> = [
        ['funnels', '/funnels', () => page.getByRole('heading', { name: 'Funnels', level: 1 }).waitFor()],
        ['library', '/library', () => page.getByRole('heading', { name: 'Library', level: 1 }).waitFor()],
        ['settings', '/settings', () => page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()],
        ['funnel-preview', `/funnels/${funnelId}`, () => page.getByRole('heading', { level: 1 }).first().waitFor()],
        ['funnel-analytics', `/funnels/${funnelId}/analytics`, () => page.getByRole('heading', { level: 1 }).first().waitFor()],
        ['select-plan', '/settings/select-plan', () => page.getByRole('heading', { level: 1 }).first().waitFor()],
      ];
      for (const [name, path, ready] of pages) {
        await page.goto(path);
        await ready();
        await expectFits(page, `phone-${label}-creator-${name}`);
      }
    });
  }

  it('offers the funnel editor at 1440 and at 390 px (only the timeline asks for a wider screen)', async () => {
    const page = await creatorPage(DESKTOP);
    await page.goto(`/funnels/${funnelId}/edit`);
    await page.getByTestId('editor-empty').waitFor();
    expect(await page.getByText(MESSAGES.timelineNeedsWiderScreen).count()).toBe(0);
    await expectFits(page, 'phone-1440-creator-editor');

    // On a phone the funnel's page is the same page, whole.
    await page.setViewportSize(PHONE);
    await page.reload();
    await page.getByTestId('editor-empty').waitFor();
    expect(await page.getByText(MESSAGES.timelineNeedsWiderScreen).count()).toBe(0);
    await expectFits(page, 'phone-390-creator-editor');
  });

  it('shows the editor with its funnel map without sideways overflow at 1440 and 1024 px', async () => {
    const { id } = await twoVideoFunnel(creator, 'pm', 'A funnel on the map');
    const page = await creatorPage(DESKTOP);
    await routeMediaHost(page.context());
    await page.goto(`/funnels/${id}/edit`);
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.getByRole('region', { name: 'Funnel map' });
    await map.locator('.react-flow__node[data-id="pm-second"]').waitFor();
    await expectFits(page, 'phone-1440-creator-editor-map');
    await page.setViewportSize(TABLET);
    await map.locator('.react-flow__node[data-id="pm-second"]').waitFor();
    await expectFits(page, 'phone-1024-creator-editor-map');
  });

  it('puts the creator sidebar in a drawer behind a menu button on a phone, operable by keyboard', async () => {
    const page = await creatorPage(PHONE);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = page.getByRole('button', { name: 'Open menu' });
    // Closed at first: the page has the whole width.
    expect(await nav.isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.focus();
    await page.keyboard.press('Enter');
    await nav.waitFor();
    await nav.getByRole('link', { name: 'Funnels' }).waitFor();
    // Focus moves into the drawer; Escape closes it and gives focus back to the button.
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.MuiDrawer-paper')))).toBe(true);
    await shot(page, 'phone-390-creator-drawer-open');
    await page.keyboard.press('Escape');
    await nav.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open menu');

    // Choosing a page from the drawer goes there and closes the drawer.
    await page.keyboard.press('Enter');
    await nav.getByRole('link', { name: 'Library' }).focus();
    await page.keyboard.press('Enter');
    await waitForPath(page, '/library');
    await nav.waitFor({ state: 'hidden' });

    // On a desktop the sidebar is always there and there is no menu button.
    await page.setViewportSize(DESKTOP);
    await nav.waitFor();
    expect(await page.getByRole('button', { name: 'Open menu' }).count()).toBe(0);
  });

  describe('admin panel', () => {
    for (const [label, viewport] of WIDTHS) {
      it(`shows every admin page without sideways overflow at ${label} px`, async () => {
        const { page } = await adminInBrowser(browser, 'Phone');
        await page.setViewportSize(viewport);
        const pages: Array<[string, string]> = [
          ['users', '/admin/users'],
          ['user', `/admin/users/${creator.id}`],
          ['plans', '/admin/plans'],
          ['plan-create', '/admin/plans/create'],
          ['plan-edit', `/admin/plans/${planId}`],
          ['customization', '/admin/app-customization'],
          ['integrations', '/admin/integrations'],
          ['webhooks', '/admin/webhooks'],
          ['webhook-create', '/admin/webhooks/create'],
          ['updates', '/admin/updates'],
          ['help', '/admin/help'],
        ];
        for (const [name, path] of pages) {
          await page.goto(path);
          await page.locator('#main-content').waitFor();
          await settle(page);
          await atTop(page);
          await expectFits(page, `phone-${label}-admin-${name}`);
        }
      }, 300_000);
    }

    it('puts the admin menu in a drawer behind a menu button on a phone, operable by keyboard', async () => {
      const { page } = await adminInBrowser(browser, 'Drawer');
      await page.setViewportSize(PHONE);
      await page.reload();
      await page.locator('#main-content').waitFor();
      const plans = page.getByRole('menuitem', { name: 'Plans' });
      const menu = page.getByRole('button', { name: 'Open menu' });
      await menu.waitFor();
      expect(await plans.isVisible()).toBe(false);
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await menu.focus();
      await page.keyboard.press('Enter');
      await plans.waitFor();
      // The drawer shows the menu's labels, not only its icons.
      expect((await plans.innerText()).trim()).toBe('Plans');
      await atTop(page);
      await shot(page, 'phone-390-admin-drawer-open');
      await page.keyboard.press('Escape');
      await plans.waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open menu');

      await page.keyboard.press('Enter');
      await plans.focus();
      await page.keyboard.press('Enter');
      await waitForPath(page, '/admin/plans');
      await plans.waitFor({ state: 'hidden' });

      // Between the phone and the desktop (a tablet held upright) the menu is a drawer too.
      await page.setViewportSize({ width: 800, height: 1000 });
      await page.reload();
      await page.locator('#main-content').waitFor();
      expect(await plans.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Open menu' }).waitFor();

      await page.setViewportSize(DESKTOP);
      await plans.waitFor();
    });
  });
});
