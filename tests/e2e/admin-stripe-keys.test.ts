import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { openDb } from '../api/support/db';
import { configureStripe, control, createPlan, STRIPE_TEST_KEYS } from '../api/support/stripe';
import { verifiedUser, type Session } from '../api/support/users';
import { expectConsoleErrors, launch, loginViaUi, openAdminPanel, openApp, failedRequest, shot, still, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

/** The same screen at a desktop and a phone width, each audited. */
const shotAtBothWidths = async (page: Page, name: string) => {
  const before = page.viewportSize();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await still(page);
    await shot(page, `${name}-${width}`);
  }
  if (before) await page.setViewportSize(before);
};

/**
 * Stripe set-up is reported done only when payments can work: keys Stripe refuses are not saved,
 * and while the keys in use do not work, paid plans are not offered to users and the admin reads
 * why on the integrations page, the plan list and the add-plan form.
 */
describeBrowser('admin: Stripe keys are checked with Stripe', () => {
  let browser: Browser;
  let db: Knex;
  let admin: Session;
  let page: Page;
  let paid: { id: number; name: string };
  let free: { id: number; name: string };
  const tag = Math.random().toString(36).slice(2, 6);

  beforeAll(async () => {
    browser = await launch();
    db = openDb();
    ({ admin, page } = await openAdminPanel(browser));
    await configureStripe(admin);
    paid = await createPlan(admin, { name: `Gold ${tag}`, price: '25.00', payment_schedule: 'monthly' });
    free = await createPlan(admin, { name: `Basic ${tag}`, price: '0', payment_schedule: 'free' });
  });
  afterAll(async () => {
    await control('fail', { count: 0 });
    if (admin) await configureStripe(admin);
    await browser?.close();
    await db?.destroy();
  });

  it('refuses a made-up secret key on save and keeps the saved one', async () => {
    expectConsoleErrors(page, failedRequest(422, '/api/admin/stripe/config'), 'Stripe refuses the made-up secret key');
    await page.goto('/admin/integrations?tab=0');
    await page.getByTestId('stripe-status').getByText('Configured', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Update credentials' }).click();
    const modal = page.locator('[data-modal="update-stripe-config"]');
    const secret = modal.getByLabel('Secret key', { exact: true });
    await secret.fill('sk_test_made_up_by_hand_0000');
    // Stripe (the test server) refuses it, as it refuses any key it did not issue.
    await control('fail', { status: 401, count: 1, path: '^/v1/customers' });
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText(MESSAGES.stripeSecretRefused).first().waitFor();
    await shotAtBothWidths(page, '250-stripe-made-up-key-refused');
    expect((await admin.http.get('/api/admin/stripe/config', admin.token)).body.data.secret).toBe(`sk_test_****${STRIPE_TEST_KEYS.secret.slice(-4)}`);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'detached' });
  });

  it('while Stripe refuses the keys in use: the admin reads why, and users are offered only free plans', async () => {
    // The saved keys stopped working (revoked at Stripe since).
    await db('branchify_stripe_settings').update({ verified_fingerprint: null });
    await control('fail', { status: 401, count: 1, path: '^/v1/customers' });

    await page.goto('/admin/integrations?tab=0');
    await page.getByTestId('stripe-problem').getByText(MESSAGES.planStripeRefused).waitFor();

    // Filtered to this suite's plans: a whole run leaves more than one page of them.
    await page.goto(`/admin/plans?filter=${encodeURIComponent(JSON.stringify({ q: tag }))}`);
    await page.getByTestId('plan-stripe-warning').getByText(MESSAGES.planStripeRefused).waitFor();
    await page.locator('tr').filter({ hasText: paid.name }).getByText('Not offered to users until Stripe payments work').waitFor();
    await shotAtBothWidths(page, '251-plans-stripe-refused');

    await page.getByRole('link', { name: 'Create plan' }).first().click();
    await waitForPath(page, '/admin/plans/create');
    await page.getByLabel('Name', { exact: true }).fill(`Platinum ${tag}`);
    await page.getByLabel('Price', { exact: true }).fill('49');
    await page.getByTestId('plan-stripe-warning').getByText(MESSAGES.planStripeRefused).waitFor();
    await shotAtBothWidths(page, '252-add-plan-stripe-refused');

    const user = await verifiedUser();
    let context: BrowserContext | null = null;
    try {
      const opened = await openApp(browser);
      context = opened.context;
      await loginViaUi(opened.page, user.email, user.password);
      await waitForPath(opened.page, '/settings/select-plan');
      await opened.page.getByRole('button', { name: `Choose ${free.name}` }).waitFor();
      expect(await opened.page.getByRole('button', { name: `Choose ${paid.name}` }).count()).toBe(0);
      await shotAtBothWidths(opened.page, '253-choose-plan-without-payments');
    } finally {
      await context?.close();
    }
  });
});
