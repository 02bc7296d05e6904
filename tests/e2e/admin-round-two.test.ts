import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { startFreshInstall, type FreshInstall } from '../harness/fresh-install';
import { smtpSettings } from '../api/support/mail';
import { atTop, resizeTo } from './support/admin-browser';
import { expectAlert, launch, loginViaUi, shot, shotAtBothWidths, still, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

const PASSWORD = 'round-two-pass-1';
const OWNER = { first: 'Rita', last: 'Owner', email: `owner-${Date.now().toString(36)}@example.test` };

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

const boxOf = (locator: Locator): Promise<Box> =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  });

const overlap = (a: Box, b: Box): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Whether a tap at the middle of the element reaches it (nothing lies over it there). */
const tappable = (locator: Locator): Promise<boolean> =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });

/** The width of the sidebar's "Plans" item: its label shows on a wide sidebar, only its icon on the rail. */
const menuItemWidth = async (page: Page): Promise<number> => {
  const box = await boxOf(page.getByRole('menuitem', { name: 'Plans' }));
  return box.right - box.left;
};

/** Opens a screen from the menu: the sidebar, or on a narrow screen the drawer behind the menu button. */
const openFromMenu = async (page: Page, name: string): Promise<void> => {
  if ((page.viewportSize()?.width ?? 0) < 900) {
    await page.locator('button[aria-controls="admin-menu"]').click();
    await page.locator('#admin-menu').getByRole('menuitem', { name }).click();
  } else {
    await page.getByRole('menuitem', { name }).click();
  }
};

/**
 * The admin panel's rough edges, from the admin's side, on an install of its own (the first
 * account, an empty plan list and no Stripe are part of what is shown): the sign-in page of a
 * fresh install, the setup checklist on the landing page only, the floating create button on a
 * phone, the sidebar after a narrow window, the Stripe webhook endpoint, the checklist after
 * email is set up, and the plan form's select and unsaved changes.
 */
describeBrowser('admin, round two: on a fresh install', () => {
  let install: FreshInstall;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  /** A browser of its own (no cookies) on the install; nothing outside it is reachable. */
  const openPage = async (width = 1440): Promise<Page> => {
    const context = await browser.newContext({ baseURL: install.url, viewport: { width, height: 900 } });
    contexts.push(context);
    const origin = new URL(install.url).origin;
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort('internetdisconnected'),
    );
    context.setDefaultTimeout(15_000);
    return context.newPage();
  };

  /** The owner (the install's first account, its administrator), signed in on the users list. */
  const ownerPage = async (width = 1440): Promise<Page> => {
    const page = await openPage(width);
    await loginViaUi(page, OWNER.email, PASSWORD);
    await waitForPath(page, '/admin/users');
    return page;
  };

  /** The owner's API session, for what other screens set up. */
  const ownerApi = async () => {
    const res = await fetch(`${install.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: OWNER.email, password: PASSWORD }),
    });
    const token = ((await res.json()) as { data: { access_token: string } }).data.access_token;
    return async (method: string, path: string, body: unknown) => {
      const answer = await fetch(`${install.url}/api/${path}`, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      expect({ path, ok: answer.ok }).toEqual({ path, ok: true });
    };
  };

  const installStatus = async (): Promise<unknown> => ((await (await fetch(`${install.url}/api/setup`)).json()) as { data: unknown }).data;

  beforeAll(async () => {
    // Every page of this suite comes from one address: its sign-ins and reloads stay within the limit.
    install = await startFreshInstall({ RATE_LIMIT_IP_MAX: '1000' });
    browser = await launch();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await install?.stop();
  });

  it('says on / of a fresh install that the first account to register becomes the administrator', async () => {
    // The server tells the page whether the next account becomes the administrator, and nothing more.
    expect(await installStatus()).toEqual({ awaiting_administrator: true });

    const page = await openPage();
    await page.goto('/');
    await waitForPath(page, '/login');
    const notice = page.getByTestId('first-account-notice');
    await notice.getByText('The first account to register becomes the administrator', { exact: false }).waitFor();
    const register = notice.getByRole('link', { name: 'Register' });
    expect(await register.getAttribute('href')).toBe('/register');
    await shotAtBothWidths(page, '300-login-fresh-install-first-account');

    // Following it: the first account is the administrator, on the users list.
    await register.click();
    await waitForPath(page, '/register');
    await page.locator('input[name=first_name]').fill(OWNER.first);
    await page.locator('input[name=last_name]').fill(OWNER.last);
    await page.locator('input[name=email]').fill(OWNER.email);
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.locator('input[name=password_confirmation]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await waitForPath(page, '/admin/users');
    await expectAlert(page, MESSAGES.accountCreated);

    // From then on, / is the usual sign-in page.
    expect(await installStatus()).toEqual({ awaiting_administrator: false });
    const next = await openPage(390);
    const asked = next.waitForResponse((res) => new URL(res.url()).pathname === '/api/setup');
    await next.goto('/');
    await waitForPath(next, '/login');
    await asked;
    await next.getByRole('button', { name: 'Log in' }).waitFor();
    await still(next);
    expect(await next.getByTestId('first-account-notice').count()).toBe(0);
    await shot(next, '301-login-with-accounts-390');
  });

  it('shows the setup checklist on the landing page only, folding to its heading and progress, at both widths', async () => {
    const page = await ownerPage();
    const checklist = page.getByTestId('setup-checklist');
    const steps = checklist.getByRole('list', { name: 'Setup steps' });
    for (const width of [1440, 390]) {
      await resizeTo(page, width);
      await page.goto('/admin/users');
      await checklist.getByRole('heading', { name: 'Set up branchify' }).waitFor();
      await steps.waitFor();
      // Not above the other screens, whether opened from the menu or by their address.
      await openFromMenu(page, 'Plans');
      await page.getByTestId('plans-empty').waitFor();
      expect(await checklist.count()).toBe(0);
      await openFromMenu(page, 'Integrations');
      await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
      expect(await checklist.count()).toBe(0);
      await page.goto('/admin/app-customization');
      await page.getByRole('heading', { name: 'App Customizations', level: 1 }).waitFor();
      expect(await checklist.count()).toBe(0);
      // Back on the landing page from the menu, it is there again.
      await openFromMenu(page, 'Users');
      await steps.waitFor();
    }

    // On a phone it folds away to its heading and progress, and stays folded after a reload.
    await page.goto('/admin/users');
    await steps.waitFor();
    const unfolded = await boxOf(checklist);
    await checklist.getByRole('button', { name: 'Hide steps' }).click();
    await steps.waitFor({ state: 'hidden' });
    await page.reload();
    await checklist.getByRole('heading', { name: 'Set up branchify' }).waitFor();
    await checklist.getByText('0 of 4 steps done').waitFor();
    expect(await checklist.getByRole('progressbar', { name: 'Setup progress' }).isVisible()).toBe(true);
    expect(await steps.isVisible()).toBe(false);
    const show = checklist.getByRole('button', { name: 'Show steps' });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    const folded = await boxOf(checklist);
    // Folded, it takes a small part of the phone's first screen.
    expect(folded.bottom - folded.top).toBeLessThan(200);
    expect(folded.bottom - folded.top).toBeLessThan((unfolded.bottom - unfolded.top) / 2);
    await atTop(page);
    await shotAtBothWidths(page, '302-setup-checklist-folded');
    // The same at full width, and it opens again by keyboard.
    await resizeTo(page, 1440);
    await show.focus();
    await page.keyboard.press('Enter');
    await steps.waitFor();
    expect(await checklist.getByRole('button', { name: 'Hide steps' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('leaves nothing under the floating create button on a phone (390 px)', async () => {
    const page = await ownerPage(390);
    await page.goto('/admin/plans');

    // No plan yet: the empty page's own button, in its place; nothing floats over its text.
    const empty = page.getByTestId('plans-empty');
    await empty.getByText('No plans yet').waitFor();
    const create = page.getByRole('link', { name: 'Create plan' });
    expect(await create.count()).toBe(1);
    expect(await empty.getByRole('link', { name: 'Create plan' }).isVisible()).toBe(true);
    for (const part of [empty.getByText('People who sign up choose a plan', { exact: false }), empty.getByRole('link', { name: 'Create plan' })]) {
      expect(await tappable(part)).toBe(true);
    }
    await atTop(page);
    await shot(page, '303-plans-empty-390');

    // A list longer than the screen, with paid plans Stripe cannot sell yet: the create button floats.
    const call = await ownerApi();
    const plan = { currency: 'usd', managed_by: 'platform', max_funnel: null, max_branch_per_funnel: null, video_sources: null };
    for (let i = 1; i <= 14; i += 1)
      await call('POST', 'admin/plans', { ...plan, name: `Tier ${i}`, price: String(5 * i), payment_schedule: 'monthly', sort_order: i });
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Tier 14' }).waitFor();
    const fab = page.getByRole('link', { name: 'Create plan' });
    const fabBox = await boxOf(fab);
    expect(await fab.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');

    // "Connect Stripe" can be tapped.
    const connect = page.getByTestId('plan-stripe-warning').getByRole('link', { name: 'Connect Stripe' });
    await connect.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    expect(overlap(await boxOf(connect), fabBox)).toBe(false);
    expect(await tappable(connect)).toBe(true);

    // Scrolled to the end, everything on the page lies above the button.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { contentBottom, buttonTop } = await page.evaluate(() => {
      const button = document.querySelector('.RaCreateButton-floating');
      const content = document.querySelector('.RaLayout-content');
      let bottom = 0;
      for (const el of Array.from(content?.querySelectorAll('*') ?? [])) {
        if (button?.contains(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden') bottom = Math.max(bottom, r.bottom);
      }
      return { contentBottom: bottom, buttonTop: button?.getBoundingClientRect().top ?? 0 };
    });
    expect(buttonTop).toBeGreaterThan(0);
    expect(contentBottom).toBeLessThanOrEqual(buttonTop);
    const lastRow = page.getByRole('row').filter({ hasText: 'Tier 14' });
    expect(overlap(await boxOf(lastRow), await boxOf(fab))).toBe(false);
    await shot(page, '304-plans-list-end-390');

    // And tapping "Connect Stripe" leads to the Stripe settings.
    await page.evaluate(() => window.scrollTo(0, 0));
    await connect.click();
    await page.waitForURL((url) => url.pathname === '/admin/integrations' && url.searchParams.get('tab') === '0');
  });

  it('shows the sidebar with its labels at full width after a narrow window, also after a reload', async () => {
    const page = await ownerPage();
    await page.getByRole('menuitem', { name: 'Plans' }).waitFor();
    expect(await menuItemWidth(page)).toBeGreaterThan(200);

    // A narrow window: the menu is a drawer; choosing a page closes it.
    await resizeTo(page, 390);
    await openFromMenu(page, 'Plans');
    await waitForPath(page, '/admin/plans');
    await page.locator('#admin-menu').waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByTestId('plans-empty').or(page.getByRole('table')).first().waitFor();

    // Full width again: the labels are back, and after a reload too.
    await resizeTo(page, 1440);
    expect(await menuItemWidth(page)).toBeGreaterThan(200);
    await page.reload();
    await page.getByRole('menuitem', { name: 'Plans' }).waitFor();
    expect(await menuItemWidth(page)).toBeGreaterThan(200);
    await atTop(page);
    await shot(page, '305-sidebar-after-narrow-1440');

    // Folded on purpose with the app bar's button: an icon rail whose items keep their names, with tooltips.
    await page.getByRole('button', { name: 'Close menu' }).click();
    await until(async () => (await menuItemWidth(page)) < 80, 'the sidebar to fold');
    expect(await menuItemWidth(page)).toBeLessThan(80);
    const plans = page.getByRole('menuitem', { name: 'Plans' });
    await plans.hover();
    await page.getByRole('tooltip', { name: 'Plans' }).waitFor();
    await shot(page, '306-sidebar-rail-1440');
    // That choice is the admin's own: it stays after a reload, and after a narrow window.
    await page.reload();
    await page.getByRole('menuitem', { name: 'Plans' }).waitFor();
    expect(await menuItemWidth(page)).toBeLessThan(80);
    await resizeTo(page, 390);
    await resizeTo(page, 1440);
    expect(await menuItemWidth(page)).toBeLessThan(80);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await until(async () => (await menuItemWidth(page)) > 200, 'the sidebar to unfold');
    expect(await menuItemWidth(page)).toBeGreaterThan(200);
  });

  it("shows this install's Stripe webhook URL, with a copy button, and the events to select", async () => {
    const page = await ownerPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(install.url).origin });
    await page.goto('/admin/integrations?tab=0');
    await page.getByRole('button', { name: 'Update credentials' }).click();
    const modal = page.locator('[data-modal="update-stripe-config"]');
    const webhook = modal.getByRole('region', { name: 'Webhook' });
    const url = webhook.getByRole('textbox', { name: 'Webhook endpoint URL' });
    expect(await url.inputValue()).toBe(`${install.url}/api/stripe/webhook`);
    expect(await url.getAttribute('readonly')).not.toBeNull();
    const events = webhook.getByRole('list', { name: 'Events to select' });
    const listed = (await events.getByRole('listitem').allTextContents()).map((t) => t.trim());
    expect(listed).toEqual(
      expect.arrayContaining([
        'customer.subscription.created',
        'customer.subscription.updated',
        'customer.subscription.deleted',
        'invoice.paid',
        'invoice.payment_failed',
        'charge.refunded',
      ]),
    );
    // Beside the signing secret's field: the endpoint just above it.
    const secret = modal.getByLabel('Webhook signing secret', { exact: true });
    expect((await boxOf(secret)).top).toBeGreaterThan((await boxOf(events)).bottom);
    expect((await boxOf(secret)).top - (await boxOf(events)).bottom).toBeLessThan(120);

    await webhook.getByRole('button', { name: 'Copy webhook URL' }).click();
    await webhook.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${install.url}/api/stripe/webhook`);
    await webhook.getByText('Copied', { exact: true }).waitFor({ state: 'detached' });
    await still(page);
    await shotAtBothWidths(page, '307-stripe-webhook-endpoint');
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'detached' });
  });

  it('ticks "Set up email" once email is saved and verified, without a reload', async () => {
    const page = await ownerPage();
    await page.goto('/admin/users');
    const checklist = page.getByTestId('setup-checklist');
    const emailStep = checklist.locator('[data-step="email"]');
    await emailStep.getByText('To do', { exact: true }).waitFor();

    await page.getByTestId('mailer-banner').getByRole('link').click();
    const form = page.getByRole('form', { name: 'Transactional email' });
    const settings = smtpSettings();
    await form.getByLabel('SMTP host (required)').fill(String(settings.host));
    await form.getByLabel('Port (required)').fill(String(settings.port));
    await form.getByLabel('Username').fill(String(settings.username));
    await form.getByLabel('Password', { exact: true }).fill(String(settings.password));
    await form.getByLabel('From address (required)').fill(String(settings.from_address));
    const readAgain = () => page.waitForResponse((res) => new URL(res.url()).pathname === '/api/admin/setup' && res.request().method() === 'GET');
    let read = readAgain();
    await form.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.transactionalEmailUpdated);
    await read;
    read = readAgain();
    await form.getByRole('button', { name: 'Verify' }).click();
    await expectAlert(page, MESSAGES.transactionalEmailVerified);
    // The checklist's state is read again as Verify succeeds.
    await read;

    // Back on the landing page through the menu: the step shows done from the start.
    await page.getByRole('menuitem', { name: 'Users' }).click();
    const first = await page.waitForFunction(
      () => document.querySelector('[data-testid="setup-checklist"] [data-step="email"]')?.getAttribute('data-done'),
      undefined,
      {
        polling: 'raf',
      },
    );
    expect(await first.jsonValue()).toBe('true');
    await emailStep.getByText('Done', { exact: true }).waitFor();
    await checklist.getByText('1 of 4 steps done').waitFor();
    await atTop(page);
    await shot(page, '308-checklist-email-done');
  });

  it('offers no blank choice in the plan form, and asks before leaving it with unsaved changes', async () => {
    const page = await ownerPage();
    await page.goto('/admin/plans/create');
    const schedule = page.getByRole('combobox', { name: 'Payment schedule' });
    await schedule.click();
    const options = async () => (await page.getByRole('listbox').getByRole('option').allTextContents()).map((t) => t.trim());
    expect(await options()).toEqual(['Monthly', 'Yearly', 'One-time', 'Free']);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Managed by' }).click();
    expect(await options()).toEqual(['Platform', 'Self-managed (through the API)']);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });

    // Unsaved: leaving asks first; Stay keeps what was typed.
    await page.getByLabel('Name', { exact: true }).fill('Half-typed');
    await page.getByRole('menuitem', { name: 'Users' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Stay' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await still(page);
    await shotAtBothWidths(page, '309-plan-form-leave-without-saving');
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/admin/plans/create');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Half-typed');
    // Escape stays too; "Leave without saving" leaves.
    await atTop(page);
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/admin/plans/create');
    await atTop(page);
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await waitForPath(page, '/admin/users');

    // Saving leaves without asking.
    await page.goto('/admin/plans/create');
    await page.getByLabel('Name', { exact: true }).fill('Starter');
    await page.getByRole('combobox', { name: 'Payment schedule' }).click();
    await page.getByRole('option', { name: 'Free', exact: true }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.planCreated);
    await waitForPath(page, '/admin/plans');
    await page.getByRole('row').filter({ hasText: 'Starter' }).waitFor();
    expect(await dialog.count()).toBe(0);

    // The edit form too: opened and left unchanged, nothing is asked; changed, it asks.
    await page.getByRole('row').filter({ hasText: 'Starter' }).getByText('Starter').click();
    await page.waitForURL((u) => /^\/admin\/plans\/\d+$/.test(u.pathname));
    await page.getByLabel('Name', { exact: true }).waitFor();
    await page.getByRole('menuitem', { name: 'Plans' }).click();
    await waitForPath(page, '/admin/plans');
    expect(await dialog.count()).toBe(0);
    await page.getByRole('row').filter({ hasText: 'Starter' }).getByText('Starter').click();
    await page.getByLabel('Name', { exact: true }).fill('Starter plus');
    await page.goBack();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Stay' }).click();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Starter plus');
  });
});
