import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MESSAGES, messageTemplates } from '@branchify/shared';
import { CARDS, configureStripe, createPlan } from '../api/support/stripe';
import { verifiedUser, type Session } from '../api/support/users';
import { expectAlert, launch, loginViaUi, openAdminPanel, openApp, shot, shotAtBothWidths, still, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

type Plan = { id: number; name: string };

/**
 * Billing history and partial refunds, as the admin and the user see them: a user paid for Pro, the
 * admin refunds part of the invoice and moves them to a free plan; both the admin's user page and
 * the user's Settings still list the invoice with its plan, and it stays refundable up to its total.
 */
describeBrowser('billing history and partial refunds', () => {
  let browser: Browser;
  let admin: Session;
  let adminPage: Page;
  let pro: Plan;
  let starter: Plan;
  let yearly: Plan;

  beforeAll(async () => {
    browser = await launch();
    ({ admin, page: adminPage } = await openAdminPanel(browser));
    await configureStripe(admin);
    const tag = Math.random().toString(36).slice(2, 6);
    pro = await createPlan(admin, { name: `Pro ${tag}`, price: '19.99', payment_schedule: 'monthly' });
    starter = await createPlan(admin, { name: `Starter ${tag}`, price: '0', payment_schedule: 'free' });
    yearly = await createPlan(admin, { name: `Pro Yearly ${tag}`, price: '199.00', payment_schedule: 'yearly' });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const invoicesRegion = (page: Page) => page.getByRole('region', { name: 'Invoices' });
  const rowOf = (page: Page, invoiceId: string) => invoicesRegion(page).locator(`[data-testid="invoice-row"][data-invoice="${invoiceId}"]`);
  const badgeOf = (page: Page, invoiceId: string) => rowOf(page, invoiceId).locator('[data-badge]');

  const openUserPage = async (user: Session) => {
    await adminPage.goto(`/admin/users/${user.id}`);
    await adminPage.getByRole('heading', { level: 1 }).waitFor();
  };

  const refundThroughModal = async (invoiceId: string, amount: string | null) => {
    await rowOf(adminPage, invoiceId).getByRole('button', { name: 'Refund' }).click();
    const modal = adminPage.locator('[data-modal="refund-invoice"]');
    await modal.getByRole('heading', { name: 'Refund Invoice' }).waitFor();
    if (amount !== null) await modal.getByLabel('Refund amount').fill(amount);
    return modal;
  };

  it('keeps every invoice after a plan change, newest first with its plan; a partial refund leaves the rest refundable', async () => {
    const user = await verifiedUser();
    const bought = await user.http.post('/api/users/subscriptions', { plan_id: pro.id, payment_method_id: CARDS.visa }, user.token);
    expect(bought.body.data.status).toBe('active');
    const subscriptionId = bought.body.data.id as number;
    const invoiceId = ((await admin.http.get(`/api/admin/subscriptions/${subscriptionId}/invoices`, admin.token)).body.data[0] as { invoice_id: string })
      .invoice_id;

    // The admin refunds $5 of the $19.99.
    await openUserPage(user);
    await rowOf(adminPage, invoiceId).waitFor();
    let modal = await refundThroughModal(invoiceId, '5');
    await modal.getByTestId('partial-refund-notice').waitFor();
    await modal.getByRole('button', { name: 'Refund Invoice' }).click();
    expect(await expectAlert(adminPage, MESSAGES.invoiceRefunded)).toBe('success');
    await modal.waitFor({ state: 'detached' });
    await rowOf(adminPage, invoiceId).getByText('$5.00 refunded').waitFor();
    expect(await badgeOf(adminPage, invoiceId).innerText()).toMatch(/^partially refunded$/i);
    // Still refundable: what was not refunded yet.
    await rowOf(adminPage, invoiceId).getByRole('button', { name: 'Refund' }).waitFor();

    // Then moves the user to Starter: the Pro invoice stays, with its plan.
    const changed = await admin.http.post(`/api/admin/subscriptions/${subscriptionId}/change`, { plan_id: starter.id }, admin.token);
    expect(changed.status).toBe(200);
    await adminPage.reload();
    await rowOf(adminPage, invoiceId).waitFor();
    expect(await invoicesRegion(adminPage).getByText('No invoices yet.').count()).toBe(0);
    await rowOf(adminPage, invoiceId).getByRole('cell', { name: pro.name, exact: true }).waitFor();
    await shotAtBothWidths(adminPage, '230-admin-invoices-after-plan-change');

    // A second refund: the modal shows what went back and offers the rest ($14.99).
    modal = await refundThroughModal(invoiceId, null);
    const summary = modal.getByRole('region', { name: 'Invoice summary' });
    await summary.getByText('$5.00', { exact: true }).waitFor();
    expect(await modal.getByLabel('Refund amount').inputValue()).toBe('14.99');
    await modal.getByLabel('Refund amount').fill('15');
    await modal.getByText(messageTemplates.refundExceedsRemaining('$14.99')).waitFor();
    await modal.getByLabel('Refund amount').fill('4.99');
    await modal.getByTestId('partial-refund-notice').waitFor();
    await still(adminPage);
    await shot(adminPage, '231-second-partial-refund');
    await modal.getByRole('button', { name: 'Refund Invoice' }).click();
    await modal.waitFor({ state: 'detached' });
    await rowOf(adminPage, invoiceId).getByText('$9.99 refunded').waitFor();
    expect(await badgeOf(adminPage, invoiceId).innerText()).toMatch(/^partially refunded$/i);

    // The rest: fully refunded, and nothing left to refund.
    modal = await refundThroughModal(invoiceId, null);
    expect(await modal.getByLabel('Refund amount').inputValue()).toBe('10.00');
    expect(await modal.getByTestId('partial-refund-notice').count()).toBe(0);
    await modal.getByRole('button', { name: 'Refund Invoice' }).click();
    await modal.waitFor({ state: 'detached' });
    await rowOf(adminPage, invoiceId).getByText('$19.99 refunded').waitFor();
    expect(await badgeOf(adminPage, invoiceId).innerText()).toMatch(/^refunded$/i);
    expect(await rowOf(adminPage, invoiceId).getByRole('button', { name: 'Refund' }).count()).toBe(0);

    // The user buys the yearly plan: both invoices, newest first, in the user's Settings.
    const current = (await user.http.get('/api/users/subscriptions', user.token)).body.data as { id: number };
    const upgrade = await user.http.post(`/api/users/subscriptions/${current.id}/change`, { plan_id: yearly.id, payment_method_id: CARDS.visa }, user.token);
    expect(upgrade.status).toBe(200);
    const { context, page } = await openApp(browser);
    try {
      await loginViaUi(page, user.email, user.password);
      await waitForPath(page, '/funnels');
      await page.goto('/settings');
      await rowOf(page, invoiceId).waitFor();
      const rows = invoicesRegion(page).getByTestId('invoice-row');
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(0).getByRole('cell', { name: yearly.name, exact: true }).count()).toBe(1);
      expect(await rows.nth(1).getByRole('cell', { name: pro.name, exact: true }).count()).toBe(1);
      expect(await badgeOf(page, invoiceId).innerText()).toMatch(/^refunded$/i);
      await shotAtBothWidths(page, '232-settings-billing-history');

      // The admin's page lists the same two, in the same order.
      await adminPage.reload();
      await rowOf(adminPage, invoiceId).waitFor();
      expect(await invoicesRegion(adminPage).getByTestId('invoice-row').count()).toBe(2);
    } finally {
      await (context as BrowserContext).close();
    }
  });
});
