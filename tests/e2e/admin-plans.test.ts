import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { subscribedUser } from '../api/support/content';
import { openDb } from '../api/support/db';
import type { Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, launch, openAdminPanel, failedRequest, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

const tag = Math.random().toString(36).slice(2, 7);

/** The helper text (or error) under a react-admin input. */
const helper = (page: Page, source: string) => page.locator(`.ra-input-${source} .MuiFormHelperText-root`);

const choose = async (page: Page, label: string, option: string) => {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

/** The list row of a plan, by its (unique) name. */
const row = (page: Page, name: string) => page.locator('tr').filter({ has: page.getByText(name, { exact: true }) });

/**
 * Plans in the admin panel (/admin/plans): the list with the spec's price display, create and
 * edit with the shared schema's messages at the fields, the server's refusals where only it knows.
 */
describeBrowser('admin panel: plans', () => {
  let browser: Browser;
  let admin: Session;
  let page: Page;

  beforeAll(async () => {
    browser = await launch();
    ({ admin, page } = await openAdminPanel(browser));
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The list searched for this run's plans (other suites' plans may fill its first page); the list keeps the search when it is shown again. */
  const openList = async () => {
    await page.goto(`/admin/plans?filter=${encodeURIComponent(JSON.stringify({ q: tag }))}`);
    await waitForPath(page, '/admin/plans');
    // The list, or its empty state on an install without plans: both offer to create one.
    await page.getByRole('link', { name: 'Create plan' }).first().waitFor();
  };

  it('creates a monthly paid plan: the shared schema checks the form first, the list shows the price as users see it', async () => {
    await openList();
    await page.getByRole('link', { name: 'Create plan' }).first().click();
    await waitForPath(page, '/admin/plans/create');
    await page.getByLabel('Name', { exact: true }).waitFor();

    // Save stays off until something is typed.
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    // No name and a price that is not an amount: the schema's messages under the fields, and no request.
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/admin/plans')) posts.push(r.url());
    });
    await page.getByLabel('Price', { exact: true }).fill('ten');
    await page.getByRole('button', { name: 'Save' }).click();
    await helper(page, 'name').getByText('The name field is required.').waitFor();
    await helper(page, 'price').getByText('The price field must be an amount such as 19 or 19.99.').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    // Limits left empty read as unlimited.
    expect(await page.getByLabel('Max funnels').getAttribute('placeholder')).toBe('Unlimited');
    await shot(page, '150-plan-create-errors');

    await page.getByLabel('Name', { exact: true }).fill(`Pro ${tag}`);
    await page.getByLabel('Price', { exact: true }).fill('0');
    await page.getByRole('button', { name: 'Save' }).click();
    await helper(page, 'price').getByText('A paid plan must have a price greater than 0.').waitFor();
    expect(posts).toEqual([]);

    await page.getByLabel('Price', { exact: true }).fill('19.99');
    await helper(page, 'price').getByText('Shown to users as $19.99/month').waitFor();
    await page.getByLabel('Max funnels').fill('5');
    await page.getByLabel('Max branches per funnel').fill('12');
    // Video sources: grouped checkboxes, all ticked (every source) until some are unticked.
    const sources = page.getByRole('group', { name: 'Video sources' });
    await sources.getByRole('group', { name: 'Video platforms' }).waitFor();
    expect(await sources.getByRole('checkbox', { name: 'Adilo' }).isChecked()).toBe(true);
    await sources.getByRole('checkbox', { name: 'Adilo' }).uncheck();
    // From the keyboard as well: Space toggles the focused box.
    await sources.getByRole('checkbox', { name: 'Custom URL' }).focus();
    await page.keyboard.press('Space');
    expect(await sources.getByRole('checkbox', { name: 'Custom URL' }).isChecked()).toBe(false);
    await shot(page, '151-plan-create-monthly');

    const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/admin/plans'));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await created).status()).toBe(201);
    expect(await expectAlert(page, MESSAGES.planCreated)).toBe('success');
    await waitForPath(page, '/admin/plans');
    const pro = row(page, `Pro ${tag}`);
    await pro.getByText('$19.99/month').waitFor();
    await pro.getByText('YouTube, Vimeo').waitFor();
    await pro.getByRole('cell', { name: '5', exact: true }).waitFor();
    await pro.getByText('Monthly').waitFor();
  });

  it('creates a free plan: no price to type, shown as Free with unlimited limits', async () => {
    await page.getByRole('link', { name: 'Create plan' }).first().click();
    await waitForPath(page, '/admin/plans/create');
    await page.getByLabel('Name', { exact: true }).fill(`Starter ${tag}`);
    await choose(page, 'Payment schedule', 'Free');
    await page.getByTestId('free-price-note').waitFor();
    expect(await page.getByLabel('Price', { exact: true }).count()).toBe(0);
    await shot(page, '152-plan-create-free');
    // Enter in a field saves, as in any form.
    await page.getByLabel('Name', { exact: true }).press('Enter');
    await expectAlert(page, MESSAGES.planCreated);
    await waitForPath(page, '/admin/plans');
    const starter = row(page, `Starter ${tag}`);
    await starter.getByText('Free', { exact: true }).first().waitFor();
    expect(await starter.getByText('Unlimited').count()).toBe(2);
    await starter.getByText('All', { exact: true }).waitFor();
    await shot(page, '153-plans-list');
  });

  it('edits a plan: the whole record goes back, and the new price shows in the list', async () => {
    await row(page, `Pro ${tag}`).getByText(`Pro ${tag}`).click();
    await page.getByLabel('Name', { exact: true }).waitFor();
    await waitForPath(page, /^\/admin\/plans\/\d+$/);
    expect(await page.getByLabel('Price', { exact: true }).inputValue()).toBe('19.99');
    expect(await page.getByRole('group', { name: 'Video sources' }).getByRole('checkbox', { name: 'Adilo' }).isChecked()).toBe(false);

    await page.getByLabel('Price', { exact: true }).fill('190');
    await choose(page, 'Payment schedule', 'Yearly');
    await page.getByLabel('Max funnels').fill('');
    await helper(page, 'price').getByText('Shown to users as $190.00/year').waitFor();
    await shot(page, '154-plan-edit');

    const put = page.waitForRequest((r) => r.method() === 'PUT' && /\/api\/admin\/plans\/\d+$/.test(r.url()));
    await page.getByRole('button', { name: 'Save' }).click();
    // react-admin sends the record it read, derived fields and all; the API takes it.
    const body = (await put).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ price: '190', payment_schedule: 'yearly', max_funnel: null, price_display: '$19.99/month', subscriber_count: 0 });
    expect(await expectAlert(page, MESSAGES.planUpdated)).toBe('success');
    await waitForPath(page, '/admin/plans');
    const pro = row(page, `Pro ${tag}`);
    await pro.getByText('$190.00/year').waitFor();
    await pro.getByText('Yearly').waitFor();
  });

  it("shows the server's field errors at the field when it refuses what the browser let through", async () => {
    expectConsoleErrors(page, failedRequest(422, '/api/admin/plans/'), 'a value the form lets through: the API refuses it at the field');
    await row(page, `Pro ${tag}`).getByText(`Pro ${tag}`).click();
    await page.getByLabel('Currency').waitFor();
    await page.getByLabel('Description').fill('For teams that publish every week.');
    // As an out-of-date client would: the request carries values the current rules refuse.
    await page.route(/\/api\/admin\/plans\/\d+$/, async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      const sent = route.request().postDataJSON() as Record<string, unknown>;
      await route.continue({ postData: JSON.stringify({ ...sent, currency: 'dollars', video_sources: ['dailymotion'] }) });
    });
    const refused = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/admin\/plans\/\d+$/.test(r.url()));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await refused).status()).toBe(422);
    await helper(page, 'currency').getByText('The currency field must be a 3-letter currency code such as usd.').waitFor();
    await page.getByRole('group', { name: 'Video sources' }).getByText('The selected video source is invalid.').waitFor();
    expect(await expectAlert(page, 'The currency field must be a 3-letter currency code such as usd.')).toBe('error');
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/plans\/\d+$/);
    await shot(page, '155-plan-server-field-errors');
    await page.unroute(/\/api\/admin\/plans\/\d+$/);
    await openList();
  });

  it("refuses to delete a plan with subscriptions (the API's message), deletes one without", async () => {
    expectConsoleErrors(page, failedRequest(409, '/api/admin/plans/'), 'a plan with subscriptions: the API refuses the delete');
    const held = await admin.http.post(
      '/api/admin/plans',
      { name: `Held ${tag}`, price: '0', currency: 'usd', payment_schedule: 'free', max_funnel: 1, max_branch_per_funnel: 3, video_sources: ['youtube'] },
      admin.token,
    );
    await subscribedUser(admin, held.body.data.id);
    await admin.http.post(
      '/api/admin/plans',
      { name: `Partner ${tag}`, price: '49', currency: 'eur', payment_schedule: 'one-time', managed_by: 'self', video_sources: null },
      admin.token,
    );
    await openList();
    const partner = row(page, `Partner ${tag}`);
    await partner.getByText('Self-managed').waitFor();
    await partner.getByText('€49.00', { exact: true }).waitFor();
    const heldRow = row(page, `Held ${tag}`);
    await heldRow.getByText('YouTube', { exact: true }).waitFor();
    await heldRow.getByText(`Held ${tag}`).click();
    await page.getByText('1 subscription uses this plan').waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Delete the plan Held ${tag}?`).waitFor();
    await shot(page, '156-plan-delete-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    expect(await expectAlert(page, MESSAGES.planHasSubscribers)).toBe('error');
    expect(new URL(page.url()).pathname).toBe(`/admin/plans/${held.body.data.id}`);
    await shot(page, '157-plan-delete-refused');

    // Deactivating it instead hides it from the plan page.
    await page.getByLabel('Active').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.planUpdated);
    await row(page, `Held ${tag}`).getByText('inactive').waitFor();

    await row(page, `Starter ${tag}`).getByText(`Starter ${tag}`).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expectAlert(page, MESSAGES.planDeleted);
    await waitForPath(page, '/admin/plans');
    await row(page, `Pro ${tag}`).waitFor();
    expect(await row(page, `Starter ${tag}`).count()).toBe(0);
    const db = openDb();
    try {
      expect(
        await db('branchify_plans')
          .where({ name: `Starter ${tag}` })
          .first(),
      ).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });
});
