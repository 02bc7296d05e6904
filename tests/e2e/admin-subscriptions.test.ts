import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { MESSAGES, messageTemplates } from '@branchify/shared';
import { openDb } from '../api/support/db';
import { CARDS, configureStripe, control, createPlan } from '../api/support/stripe';
import { adminSession, PASSWORD, uniqueEmail, verifiedUser, type Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, launch, loginViaUi, openApp, failedRequest, shot, still, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

type Plan = { id: number; name: string; price: string; payment_schedule: string };

/**
 * Subscriptions from the admin's user page, against the real server and the Stripe test server:
 * add (free and paid), change, cancel (at period end and immediately), resume, refund, and the
 * refusals the modals explain (self-managed plans and subscriptions, the API's warnings when the
 * page is out of date, a refund over the amount or a second refund).
 */
describeBrowser('admin panel: subscriptions', () => {
  let browser: Browser;
  let db: Knex;
  let admin: Session;
  let context: BrowserContext;
  let page: Page;
  const plans: Record<'free' | 'otherFree' | 'monthly' | 'yearly' | 'oneTime' | 'selfManaged', Plan> = {} as never;

  const modal = (name: string) => page.locator(`[data-modal="${name}"]`);
  const panel = () => page.getByRole('region', { name: 'Subscription' });
  const invoicesRegion = () => page.getByRole('region', { name: 'Invoices' });
  const subscriptionOf = (userId: number) =>
    db('up_users')
      .where({ id: userId })
      .first()
      .then((u: { subscription_id: number | null }) => (u.subscription_id ? db('branchify_subscriptions').where({ id: u.subscription_id }).first() : null));

  /** Requests the page sends to the admin subscriptions API, to prove a refusal sent nothing. */
  const subscriptionCalls = () => {
    const calls: string[] = [];
    const listen = (r: Request) => {
      if (r.method() === 'POST' && r.url().includes('/api/admin/subscriptions')) calls.push(r.url());
    };
    page.on('request', listen);
    return { calls, stop: () => page.off('request', listen) };
  };

  const openUserPage = async (user: Session) => {
    await page.goto(`/admin/users/${user.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await panel().getByRole('button').first().waitFor();
  };

  /** A verified user who bought `plan` with a card: active, with a paid invoice. */
  const paidUser = async (plan: Plan = plans.monthly) => {
    const user = await verifiedUser();
    const res = await user.http.post('/api/users/subscriptions', { plan_id: plan.id, payment_method_id: CARDS.visa }, user.token);
    if (res.status !== 201 || res.body.data.status !== 'active') throw new Error(`subscribe failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { user, subscription: res.body.data as { id: number } };
  };

  const choosePlan = async (dialog: ReturnType<typeof modal>, label: string, plan: Plan, price: string) => {
    await dialog.getByRole('combobox', { name: new RegExp(label) }).click();
    await page.getByRole('option', { name: `${plan.name} - ${price}`, exact: true }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
  };

  beforeAll(async () => {
    browser = await launch();
    db = openDb();
    admin = await adminSession();
    await configureStripe(admin);
    const tag = Math.random().toString(36).slice(2, 6);
    plans.free = await createPlan(admin, { name: `Starter ${tag}`, price: '0', payment_schedule: 'free' });
    plans.otherFree = await createPlan(admin, { name: `Hobby ${tag}`, price: '0', payment_schedule: 'free' });
    plans.monthly = await createPlan(admin, { name: `Pro ${tag}`, price: '19.00', payment_schedule: 'monthly' });
    plans.yearly = await createPlan(admin, { name: `Pro Yearly ${tag}`, price: '190.00', payment_schedule: 'yearly' });
    plans.oneTime = await createPlan(admin, { name: `Lifetime ${tag}`, price: '49.00', payment_schedule: 'one-time' });
    plans.selfManaged = await createPlan(admin, { name: `Partner ${tag}`, price: '29.00', payment_schedule: 'monthly', managed_by: 'self' });

    const email = uniqueEmail('billing-admin');
    await admin.http.post(
      '/api/admin/users',
      { first_name: 'Bill', last_name: 'Admin', email, password: PASSWORD, password_confirmation: PASSWORD, is_admin: true },
      admin.token,
    );
    ({ context, page } = await openApp(browser));
    await loginViaUi(page, email, PASSWORD);
    await waitForPath(page, '/admin/users');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await db?.destroy();
  });

  it("adds a free plan: the select lists 'name - price', the subscription starts active", async () => {
    const user = await verifiedUser();
    await openUserPage(user);
    await panel().getByText('This user has no subscription.').waitFor();
    await panel().getByRole('button', { name: 'Add Plan' }).click();
    const add = modal('add-or-change-subscription-by-admin');
    await add.getByRole('heading', { name: 'Add Subscription Plan' }).waitFor();
    expect(await add.getByRole('button', { name: 'Add Plan' }).isDisabled()).toBe(true);

    await add.getByRole('combobox', { name: /Subscription Plan/ }).click();
    const options = await page.getByRole('option').allInnerTexts();
    expect(options).toEqual(
      expect.arrayContaining([
        `${plans.free.name} - Free`,
        `${plans.monthly.name} - $19.00/month`,
        `${plans.yearly.name} - $190.00/year`,
        `${plans.oneTime.name} - $49.00`,
      ]),
    );
    await still(page);
    await shot(page, '130-add-plan-select');
    await page.getByRole('option', { name: `${plans.free.name} - Free`, exact: true }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    expect(await add.getByTestId('paid-plan-note').count()).toBe(0);
    await add.getByRole('button', { name: 'Add Plan' }).click();

    expect(await expectAlert(page, MESSAGES.subscriptionPlanAdded)).toBe('success');
    await add.waitFor({ state: 'detached' });
    // The panel refreshes without a reload.
    await panel().getByText(plans.free.name).waitFor();
    expect(await panel().locator('[data-badge]').getAttribute('data-badge')).toBe('active');
    expect(await panel().locator('[data-badge]').innerText()).toMatch(/^active$/i);
    expect(await subscriptionOf(user.id)).toMatchObject({ plan_id: plans.free.id, status: 'active', managed_by: 'platform' });
    await shot(page, '131-free-plan-added');
  });

  it('adds a paid plan: the blue payment note, then the subscription waits for payment', async () => {
    const user = await verifiedUser();
    await openUserPage(user);
    await panel().getByRole('button', { name: 'Add Plan' }).click();
    const add = modal('add-or-change-subscription-by-admin');
    await choosePlan(add, 'Subscription Plan', plans.monthly, '$19.00/month');
    const note = add.getByTestId('paid-plan-note');
    expect(await note.innerText()).toBe(MESSAGES.adminPaidPlanNote);
    await still(page);
    await shot(page, '132-add-paid-plan-note');
    await add.getByRole('button', { name: 'Add Plan' }).click();

    expect(await expectAlert(page, MESSAGES.subscriptionPlanAdded)).toBe('success');
    await add.waitFor({ state: 'detached' });
    await panel().getByText(plans.monthly.name).waitFor();
    await panel().getByText('payment required').waitFor();
    await panel().getByText('Waiting for payment: the user is asked to pay the open invoice when they next log in.').waitFor();
    expect(await panel().locator('[data-badge]').getAttribute('data-badge')).toBe('suspended');
    expect(await subscriptionOf(user.id)).toMatchObject({ plan_id: plans.monthly.id, status: 'payment_required' });
    // Its open invoice is listed, not refundable.
    const invoice = invoicesRegion().getByTestId('invoice-row').first();
    await invoice.waitFor();
    expect(await invoice.locator('[data-badge]').innerText()).toMatch(/open/i);
    expect(await invoice.locator('[data-badge]').getAttribute('data-badge')).toBe('suspended');
    expect(await invoice.getByText('$19.00').count()).toBe(1);
    expect(await invoice.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    await shot(page, '133-paid-plan-payment-required');
  });

  it('refuses a self-managed plan before sending anything', async () => {
    const user = await verifiedUser();
    await openUserPage(user);
    const calls = subscriptionCalls();
    await panel().getByRole('button', { name: 'Add Plan' }).click();
    const add = modal('add-or-change-subscription-by-admin');
    await choosePlan(add, 'Subscription Plan', plans.selfManaged, '$29.00/month');
    await add.getByText(MESSAGES.selfManagedPlan).waitFor();
    expect(await add.getByRole('button', { name: 'Add Plan' }).isDisabled()).toBe(true);
    expect(await add.getByTestId('paid-plan-note').count()).toBe(0);
    await still(page);
    await shot(page, '134-self-managed-plan-refused');
    await add.getByRole('button', { name: 'Cancel' }).click();
    await add.waitFor({ state: 'detached' });
    calls.stop();
    expect(calls.calls).toEqual([]);
    expect(await subscriptionOf(user.id)).toBeNull();
  });

  it("shows the API's field error at the plan select (a plan withdrawn meanwhile)", async () => {
    expectConsoleErrors(page, failedRequest(422, '/api/admin/subscriptions'), 'the plan was withdrawn after the form opened: the API refuses it');
    const withdrawn = await createPlan(admin, { name: `Withdrawn ${Math.random().toString(36).slice(2, 6)}`, price: '0', payment_schedule: 'free' });
    const user = await verifiedUser();
    await openUserPage(user);
    await panel().getByRole('button', { name: 'Add Plan' }).click();
    const add = modal('add-or-change-subscription-by-admin');
    await choosePlan(add, 'Subscription Plan', withdrawn, 'Free');
    const res = await admin.http.put(
      `/api/admin/plans/${withdrawn.id}`,
      { name: withdrawn.name, price: '0', currency: 'usd', payment_schedule: 'free', managed_by: 'platform', is_active: false },
      admin.token,
    );
    expect(res.status).toBe(200);
    await add.getByRole('button', { name: 'Add Plan' }).click();
    await add.getByText(MESSAGES.planNotAvailable).waitFor();
    expect(await add.getByRole('combobox', { name: /Subscription Plan/ }).getAttribute('aria-invalid')).toBe('true');
    expect(await add.getByTestId('modal-warning').count()).toBe(0);
    await still(page);
    await shot(page, '147-plan-not-available');
    await add.getByRole('button', { name: 'Cancel' }).click();
    await add.waitFor({ state: 'detached' });
    expect(await subscriptionOf(user.id)).toBeNull();
  });

  it('changes the plan: the Current Subscription panel, the same plan refused, the new plan saved', async () => {
    const { user } = await paidUser(plans.monthly);
    await openUserPage(user);
    await panel().getByRole('button', { name: 'Change Plan' }).click();
    const change = modal('add-or-change-subscription-by-admin');
    await change.getByRole('heading', { name: 'Change Subscription Plan' }).waitFor();
    const current = change.getByRole('region', { name: 'Current Subscription' });
    await current.getByText(plans.monthly.name).waitFor();
    await current.getByText('$19.00/month').waitFor();
    expect(await current.locator('[data-badge]').innerText()).toMatch(/^active$/i);

    await choosePlan(change, 'New Subscription Plan', plans.monthly, '$19.00/month');
    await change.getByText(MESSAGES.samePlan).waitFor();
    expect(await change.getByRole('button', { name: 'Change Plan' }).isDisabled()).toBe(true);

    await choosePlan(change, 'New Subscription Plan', plans.yearly, '$190.00/year');
    await change.getByTestId('paid-plan-note').waitFor();
    await still(page);
    await shot(page, '135-change-plan');
    await change.getByRole('button', { name: 'Change Plan' }).click();
    expect(await expectAlert(page, MESSAGES.subscriptionPlanChanged)).toBe('success');
    await change.waitFor({ state: 'detached' });
    await panel().getByText('$190.00/year').waitFor();
    await panel().getByText(plans.yearly.name).waitFor();
    expect(await subscriptionOf(user.id)).toMatchObject({ plan_id: plans.yearly.id });
  });

  it('cancels at the end of the period (reason required), resumes, then cancels immediately', async () => {
    const { user, subscription } = await paidUser(plans.monthly);
    await openUserPage(user);
    const calls = subscriptionCalls();
    await panel().getByRole('button', { name: 'Cancel Subscription' }).click();
    const cancel = modal('cancel-subscription-by-admin');
    await cancel.getByRole('heading', { name: 'Cancel Subscription' }).waitFor();
    expect(await cancel.getByRole('radio', { name: /At the end of the billing period/ }).isChecked()).toBe(true);
    await cancel.getByRole('button', { name: 'Cancel Subscription' }).click();
    await cancel.getByText(MESSAGES.cancellationReasonRequired).waitFor();
    expect(calls.calls).toEqual([]);
    await cancel.getByLabel('Reason (required)').fill('Customer asked to stop at renewal');
    await still(page);
    await shot(page, '136-cancel-at-period-end');
    await cancel.getByRole('button', { name: 'Cancel Subscription' }).click();
    expect(await expectAlert(page, MESSAGES.subscriptionCancelled)).toBe('success');
    await cancel.waitFor({ state: 'detached' });
    calls.stop();
    await panel()
      .getByText(/keeps access until/)
      .waitFor();
    expect(await panel().locator('[data-badge]').innerText()).toMatch(/^canceled$/i);
    const ended = await db('branchify_subscriptions').where({ id: subscription.id }).first();
    expect(ended).toMatchObject({ status: 'canceled', cancellation_reason: 'Customer asked to stop at renewal', canceled_by: 'admin' });
    expect(Boolean(ended.cancel_at_period_end)).toBe(true);
    expect(new Date(ended.canceled_at).getTime()).toBeGreaterThan(Date.now());
    await shot(page, '137-canceled-at-period-end');

    await panel().getByRole('button', { name: 'Resume Subscription' }).click();
    const resume = modal('resume-subscription-by-admin');
    await resume.getByRole('heading', { name: 'Resume Subscription' }).waitFor();
    await still(page);
    await shot(page, '138-resume-subscription');
    await resume.getByRole('button', { name: 'Resume Subscription' }).click();
    expect(await expectAlert(page, MESSAGES.subscriptionResumed)).toBe('success');
    await resume.waitFor({ state: 'detached' });
    await panel().getByRole('button', { name: 'Cancel Subscription' }).waitFor();
    expect(await panel().locator('[data-badge]').innerText()).toMatch(/^active$/i);
    expect(await db('branchify_subscriptions').where({ id: subscription.id }).first()).toMatchObject({ status: 'active', canceled_at: null });

    await panel().getByRole('button', { name: 'Cancel Subscription' }).click();
    await cancel.getByRole('radio', { name: 'Immediately' }).check();
    await cancel.getByLabel('Reason (required)').fill('Fraud');
    await cancel.getByRole('button', { name: 'Cancel Subscription' }).click();
    expect(await expectAlert(page, MESSAGES.subscriptionCancelled)).toBe('success');
    await cancel.waitFor({ state: 'detached' });
    await panel().getByText('Canceled', { exact: true }).waitFor();
    const now = await db('branchify_subscriptions').where({ id: subscription.id }).first();
    expect(now).toMatchObject({ status: 'canceled', cancellation_reason: 'Fraud' });
    expect(Boolean(now.cancel_at_period_end)).toBe(false);
    expect(new Date(now.canceled_at).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('cancels a one-time plan immediately (no period to choose), with the keyboard only', async () => {
    const { user, subscription } = await paidUser(plans.oneTime);
    await openUserPage(user);
    await panel().getByRole('button', { name: 'Cancel Subscription' }).waitFor();
    // Tab to the panel's Cancel Subscription button and press Enter.
    for (let i = 0; i < 60; i += 1) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === 'Cancel Subscription') break;
    }
    await page.keyboard.press('Enter');
    const cancel = modal('cancel-subscription-by-admin');
    await cancel.getByText('This plan is cancelled immediately', { exact: false }).waitFor();
    expect(await cancel.getByRole('radio').count()).toBe(0);
    // The reason has the focus.
    await page.keyboard.type('Refund requested');
    await still(page);
    await shot(page, '139-cancel-one-time-keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Cancel Subscription');
    await page.keyboard.press('Enter');
    expect(await expectAlert(page, MESSAGES.subscriptionCancelled)).toBe('success');
    await cancel.waitFor({ state: 'detached' });
    expect(await db('branchify_subscriptions').where({ id: subscription.id }).first()).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'Refund requested',
    });
  });

  it("shows the API's warnings when the page is out of date", async () => {
    expectConsoleErrors(
      page,
      failedRequest(409, '/api/admin/subscriptions/'),
      'the subscription changed behind the page: the API refuses the stale cancel and resume',
    );
    const { user, subscription } = await paidUser(plans.monthly);
    await openUserPage(user);
    await panel().getByRole('button', { name: 'Cancel Subscription' }).waitFor();
    // Another admin cancels it meanwhile.
    const elsewhere = await admin.http.post(
      `/api/admin/subscriptions/${subscription.id}/cancel`,
      { period: 'cancel_at_period_end', cancellation_reason: 'Elsewhere', cancellation_note: 'Elsewhere' },
      admin.token,
    );
    expect(elsewhere.status).toBe(200);
    await panel().getByRole('button', { name: 'Cancel Subscription' }).click();
    const cancel = modal('cancel-subscription-by-admin');
    await cancel.getByLabel('Reason (required)').fill('Too late');
    await cancel.getByRole('button', { name: 'Cancel Subscription' }).click();
    await cancel.getByTestId('modal-warning').getByText(MESSAGES.noActiveSubscriptionToCancel).waitFor();
    // The modal catches up with the subscription as it is now: canceled, nothing left to send.
    await cancel
      .getByRole('region', { name: 'Current Subscription' })
      .getByText(/^canceled$/i)
      .waitFor();
    expect(await cancel.getByRole('button', { name: 'Cancel Subscription' }).isDisabled()).toBe(true);
    await still(page);
    await shot(page, '140-warning-nothing-to-cancel');
    await cancel.getByRole('button', { name: 'Keep Subscription' }).click();
    await cancel.waitFor({ state: 'detached' });
    // The page behind caught up without a reload.
    await panel().getByRole('button', { name: 'Resume Subscription' }).waitFor();

    // Another admin resumes it meanwhile.
    expect((await admin.http.post(`/api/admin/subscriptions/${subscription.id}/resume`, {}, admin.token)).status).toBe(200);
    await panel().getByRole('button', { name: 'Resume Subscription' }).click();
    const resume = modal('resume-subscription-by-admin');
    await resume.getByRole('button', { name: 'Resume Subscription' }).click();
    await resume.getByTestId('modal-warning').getByText(MESSAGES.onlyCanceledResumable).waitFor();
    await resume.getByRole('button', { name: 'Cancel' }).click();
    await resume.waitFor({ state: 'detached' });
    await panel().getByRole('button', { name: 'Cancel Subscription' }).waitFor();
  });

  it('explains that a self-managed subscription is changed through the API', async () => {
    const user = await verifiedUser();
    const added = await admin.http.post('/api/admin/subscriptions', { user_id: user.id, plan_id: plans.free.id }, admin.token);
    await db('branchify_subscriptions').where({ id: added.body.data.id }).update({ managed_by: 'self' });
    await openUserPage(user);
    await panel().getByText('Self (through the API)').waitFor();
    const calls = subscriptionCalls();

    await panel().getByRole('button', { name: 'Change Plan' }).click();
    const change = modal('add-or-change-subscription-by-admin');
    await change.getByText(MESSAGES.onlyPlatformManagedChange).waitFor();
    expect(await change.getByRole('button', { name: 'Change Plan' }).isDisabled()).toBe(true);
    await still(page);
    await shot(page, '141-self-managed-change-refused');
    await change.getByRole('button', { name: 'Cancel' }).click();
    await change.waitFor({ state: 'detached' });

    await panel().getByRole('button', { name: 'Cancel Subscription' }).click();
    const cancel = modal('cancel-subscription-by-admin');
    await cancel.getByTestId('modal-warning').getByText(MESSAGES.cannotCancelHere).waitFor();
    expect(await cancel.getByRole('button', { name: 'Cancel Subscription' }).isDisabled()).toBe(true);
    await cancel.getByRole('button', { name: 'Keep Subscription' }).click();
    await cancel.waitFor({ state: 'detached' });

    await db('branchify_subscriptions').where({ id: added.body.data.id }).update({ status: 'canceled', canceled_at: new Date(), canceled_by: 'admin' });
    await page.reload();
    await panel().getByRole('button', { name: 'Resume Subscription' }).click();
    const resume = modal('resume-subscription-by-admin');
    await resume.getByTestId('modal-warning').getByText(MESSAGES.cannotResumeHere).waitFor();
    expect(await resume.getByRole('button', { name: 'Resume Subscription' }).isDisabled()).toBe(true);
    await resume.getByRole('button', { name: 'Cancel' }).click();
    calls.stop();
    expect(calls.calls).toEqual([]);
  });

  it('refunds part of a paid invoice (the rest stays refundable); more than the invoice and a refund of a refunded invoice are refused', async () => {
    expectConsoleErrors(page, failedRequest(409, '/api/admin/subscriptions/invoices/'), 'a refund over the amount and a second refund are refused by the API');
    const { user, subscription } = await paidUser(plans.monthly);
    await openUserPage(user);
    const row = invoicesRegion().getByTestId('invoice-row').first();
    await row.waitFor();
    expect(await row.locator('[data-badge]').innerText()).toMatch(/^paid$/i);
    expect(await row.locator('[data-badge]').getAttribute('data-badge')).toBe('active');
    await row.getByText('$19.00').waitFor();
    await row.getByText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/).waitFor();
    await shot(page, '142-invoices');

    const calls = subscriptionCalls();
    await row.getByRole('button', { name: 'Refund' }).click();
    const refund = modal('refund-invoice');
    await refund.getByRole('heading', { name: 'Refund Invoice' }).waitFor();
    const summary = refund.getByRole('region', { name: 'Invoice summary' });
    await summary.getByText('$19.00').waitFor();
    expect(await summary.locator('[data-badge]').innerText()).toMatch(/^paid$/i);
    const amount = refund.getByLabel('Refund amount');
    expect(await amount.inputValue()).toBe('19.00');
    await refund.getByText('$', { exact: true }).waitFor();
    expect(await refund.getByTestId('partial-refund-notice').count()).toBe(0);

    await amount.fill('25');
    await refund.getByText(MESSAGES.refundExceedsAmount).waitFor();
    await refund.getByRole('button', { name: 'Refund Invoice' }).click();
    await refund.getByText(MESSAGES.refundExceedsAmount).waitFor();
    expect(calls.calls).toEqual([]);

    await amount.fill('5');
    const notice = refund.getByTestId('partial-refund-notice');
    expect(await notice.innerText()).toBe(messageTemplates.partialRefund('$5.00', '$19.00'));
    await still(page);
    await shot(page, '143-partial-refund');
    await refund.getByRole('button', { name: 'Refund Invoice' }).click();
    expect(await expectAlert(page, MESSAGES.invoiceRefunded)).toBe('success');
    await refund.waitFor({ state: 'detached' });
    calls.stop();
    expect(calls.calls).toHaveLength(1);
    // The list shows it partially refunded, with the rest still refundable.
    await row.getByText('$5.00 refunded').waitFor();
    expect(await row.locator('[data-badge]').innerText()).toMatch(/^partially refunded$/i);
    expect(await row.locator('[data-badge]').getAttribute('data-badge')).toBe('suspended');
    await row.getByRole('button', { name: 'Refund' }).waitFor();
    const stored = await db('branchify_invoices').where({ subscription_id: subscription.id }).first();
    expect(stored.status).toBe('paid');
    expect(Number(stored.amount_refunded)).toBe(5);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, '144-refunded');

    // A second refund of an invoice someone refunded meanwhile is refused with the API's message.
    const second = await paidUser(plans.monthly);
    await openUserPage(second.user);
    const secondRow = invoicesRegion().getByTestId('invoice-row').first();
    await secondRow.getByRole('button', { name: 'Refund' }).click();
    await refund.getByRole('heading', { name: 'Refund Invoice' }).waitFor();
    const invoice = (await admin.http.get(`/api/admin/subscriptions/${second.subscription.id}/invoices`, admin.token)).body.data[0];
    expect(
      (await admin.http.post(`/api/admin/subscriptions/invoices/${second.subscription.id}/refund`, { invoice_id: invoice.invoice_id }, admin.token)).status,
    ).toBe(200);
    await refund.getByRole('button', { name: 'Refund Invoice' }).click();
    await refund.getByTestId('modal-warning').getByText(MESSAGES.alreadyRefunded).waitFor();
    await refund
      .getByRole('region', { name: 'Invoice summary' })
      .locator('[data-badge]')
      .getByText(/^refunded$/i)
      .waitFor();
    expect(await refund.getByRole('button', { name: 'Refund Invoice' }).isDisabled()).toBe(true);
    await still(page);
    await shot(page, '145-refund-twice-refused');
    await refund.getByRole('button', { name: 'Cancel' }).click();
    await refund.waitFor({ state: 'detached' });
    await secondRow.getByText('$19.00 refunded').waitFor();
    expect(await secondRow.getByRole('button', { name: 'Refund' }).count()).toBe(0);
  });

  it('warns when the subscription renews within 7 days', async () => {
    const { user, subscription } = await paidUser(plans.monthly);
    // Stripe's webhooks about the new subscription are in (they would set renews_at back).
    await control('webhooks/resume', {});
    await db('branchify_subscriptions')
      .where({ id: subscription.id })
      .update({ renews_at: new Date(Date.now() + 3 * 86_400_000 + 3_600_000) });
    await openUserPage(user);
    const warning = panel().getByTestId('renewal-warning');
    expect(await warning.innerText()).toMatch(/^This subscription renews in 3 days, on [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/);
    await shot(page, '146-renewal-warning');

    await db('branchify_subscriptions')
      .where({ id: subscription.id })
      .update({ renews_at: new Date(Date.now() + 10 * 86_400_000) });
    await page.reload();
    await panel().getByText('Renews').waitFor();
    expect(await panel().getByTestId('renewal-warning').count()).toBe(0);
  });
});
