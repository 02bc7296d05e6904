import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { openDb } from '../api/support/db';
import { configureStripe, control, createPlan, currentSubscription, eventually } from '../api/support/stripe';
import { adminSession, verifiedUser, type Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, failedRequest, launch, loginViaUi, openApp, shot, still, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { routeStripeJs, typeCard } from './support/stripe-js';

/** What the Stripe.js test double records in the page. */
interface StripeJsDoubleWindow {
  __stripeJsDouble: { calls: Array<Record<string, unknown>>; wrappers: Array<{ name: string }> };
}

const CARD_NUMBERS = {
  visa: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  threeDSecure: '4000 0027 6000 3184',
};

type Plan = { id: number; name: string; price: string };

/**
 * Paying in the web app: the select-plan page, the Confirm Subscription,
 * stripe-card and Payment Failed modals, 3-D Secure and /invoices/pay, with Stripe.js replaced by
 * a test double (support/stripe-js-double.js) that talks to the Stripe test server from the page.
 */
describeBrowser('web app: billing', () => {
  let browser: Browser;
  let admin: Session;
  let db: Knex;
  let monthly: Plan;

  beforeAll(async () => {
    browser = await launch();
    db = openDb();
    admin = await adminSession();
    await configureStripe(admin);
    monthly = await createPlan(admin, { price: '19.00', payment_schedule: 'monthly' });
  });
  afterAll(async () => {
    await browser?.close();
    await db?.destroy();
  });

  /** A verified user without a plan, signed in through the UI, on SelectSubscriptionPlan. */
  const onSelectPlan = async () => {
    const user = await verifiedUser();
    const { page, context } = await openApp(browser);
    await routeStripeJs(page);
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/settings/select-plan');
    return { user, page, context };
  };

  /** Chooses the plan and confirms: with no card on file, the stripe-card modal opens. */
  const chooseAndConfirm = async (page: Page, plan: Plan, screenshot?: string) => {
    await page.getByRole('button', { name: `Choose ${plan.name}` }).click();
    const confirm = page.locator('[data-modal="create-or-change-subscription-by-user"]');
    await confirm.getByText('Confirm Subscription').waitFor();
    await confirm.getByText(`Subscribe to ${plan.name} ($19.00/month)?`).waitFor();
    await confirm.getByText('You will add a card to pay for this plan.').waitFor();
    if (screenshot) await still(page).then(() => shot(page, screenshot));
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await confirm.waitFor({ state: 'detached' });
    const card = page.locator('[data-modal="stripe-card"]');
    await card.getByText('Add your credit card').waitFor();
    return card;
  };

  /** Holds the page's Stripe.js requests for new payment methods until released (to see 'Processing...'). */
  const holdPaymentMethods = async (page: Page) => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.origin === 'https://api.stripe.com' && url.pathname === '/v1/payment_methods',
      async (route) => {
        await gate;
        await route.fallback(); // on to the route that forwards it to the Stripe test server
      },
    );
    return release;
  };

  const rowsOf = (userId: number) => db('branchify_subscriptions').where({ user_id: userId }).orderBy('id', 'asc');

  it('adds a card and subscribes to a paid monthly plan, then reaches the funnels dashboard', async () => {
    const { user, page, context } = await onSelectPlan();
    await page.getByRole('button', { name: `Choose ${monthly.name}` }).waitFor();
    await shot(page, '60-select-plan-paid');
    const card = await chooseAndConfirm(page, monthly, '61-confirm-subscription');

    // The double is the page's Stripe.js: loaded through @stripe/stripe-js with the install's key.
    // The modal opens before Stripe.js has loaded; its card form shows once Elements is mounted.
    await page.locator('[data-stripe-double=card]').waitFor();
    const calls = await page.evaluate(() => (window as unknown as StripeJsDoubleWindow).__stripeJsDouble.calls);
    expect(calls[0]).toMatchObject({ method: 'Stripe', publishableKey: 'pk_test_branchify_suite', stripeAccount: null });
    expect(await page.evaluate(() => (window as unknown as StripeJsDoubleWindow).__stripeJsDouble.wrappers.map((w: { name: string }) => w.name))).toEqual([
      'stripe-js',
      'react-stripe-js',
    ]);

    await typeCard(page, CARD_NUMBERS.visa);
    await still(page);
    await shot(page, '62-stripe-card');
    const release = await holdPaymentMethods(page);
    await card.getByRole('button', { name: 'Save card' }).click();
    await card.getByRole('button', { name: 'Processing...' }).waitFor();
    expect(await card.getByRole('button', { name: 'Processing...' }).isDisabled()).toBe(true);
    await shot(page, '63-stripe-card-processing');
    release();

    expect(await expectAlert(page, MESSAGES.cardAdded)).toBe('success');
    await card.waitFor({ state: 'detached' });
    await expectAlert(page, MESSAGES.subscriptionCreated);
    await waitForPath(page, '/funnels');
    await page.getByRole('link', { name: 'Funnels', exact: true }).waitFor();
    await shot(page, '64-subscribed-funnels-dashboard');

    // The API and the database agree: one active, platform-managed subscription paid by the card.
    const sub = await currentSubscription(user);
    expect(sub).toMatchObject({ status: 'active', plan_id: monthly.id, managed_by: 'platform' });
    const method = (await user.http.get('/api/payment-method', user.token)).body.data;
    expect(method).toMatchObject({ brand: 'visa', last4: '4242' });
    const rows = await rowsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'active', plan_id: monthly.id });
    expect(rows[0].stripe_subscription_id).toMatch(/^sub_/);
    expect(rows[0].payment_method_id).toBe(method.id);
    const invoices = (await user.http.get(`/api/users/subscriptions/${sub.id}/invoices`, user.token)).body.data;
    expect(invoices).toEqual([expect.objectContaining({ status: 'paid', amount: expect.anything() })]);

    // The card came from the browser: Stripe.js's call, with the publishable key, reached the test server.
    const requests = await control<Array<{ method: string; path: string; status: number }>>('requests');
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_methods' && r.status === 200).length).toBeGreaterThan(0);

    // Settings shows the paid plan.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const section = page.getByRole('region', { name: 'Subscription' });
    await section.getByText(monthly.name).waitFor();
    await context.close();
  });

  it('rejects an incomplete card number in the card form without calling the API', async () => {
    const { page, context } = await onSelectPlan();
    const card = await chooseAndConfirm(page, monthly);
    await typeCard(page, '4242 4242');
    await card.getByRole('button', { name: 'Save card' }).click();
    await card.getByRole('alert').filter({ hasText: 'Your card number is incomplete.' }).waitFor();
    await shot(page, '65-stripe-card-incomplete');
    await card.getByRole('button', { name: 'Cancel' }).click();
    await card.waitFor({ state: 'detached' });
    await context.close();
  });

  it("declines a card: the Payment Failed modal, 'Add New Card', a good card, then active", async () => {
    const { user, page, context } = await onSelectPlan();
    expectConsoleErrors(page, failedRequest(402, '/api/users/subscriptions'), 'the bank declines the charge: the API answers 402');
    const card = await chooseAndConfirm(page, monthly);
    await typeCard(page, CARD_NUMBERS.declined);
    await card.getByRole('button', { name: 'Save card' }).click();
    // The card itself is accepted; the charge is what the bank declines.
    await expectAlert(page, MESSAGES.cardAdded);
    await card.waitFor({ state: 'detached' });

    const failed = page.locator('[data-modal="attempted-payment-failure"]');
    await failed.getByText('Payment Failed').waitFor();
    await failed.getByText('Your payment was declined. Please add a new payment method.').waitFor();
    await still(page);
    await shot(page, '66-payment-failed');
    expect(await page.evaluate(() => location.pathname)).toBe('/settings/select-plan');
    const declined = await currentSubscription(user);
    expect(declined?.status).not.toBe('active');

    await failed.getByRole('button', { name: 'Add New Card' }).click();
    await failed.waitFor({ state: 'detached' });
    const retry = page.locator('[data-modal="stripe-card"]');
    await retry.getByText('Add your credit card').waitFor();
    await typeCard(page, CARD_NUMBERS.visa);
    await retry.getByRole('button', { name: 'Save card' }).click();
    await expectAlert(page, MESSAGES.subscriptionCreated);
    await waitForPath(page, '/funnels');
    await shot(page, '67-after-retry-funnels-dashboard');

    const sub = await currentSubscription(user);
    expect(sub).toMatchObject({ status: 'active', plan_id: monthly.id });
    expect((await user.http.get('/api/payment-method', user.token)).body.data).toMatchObject({ last4: '4242' });
    // The declined attempt does not linger as a second live subscription.
    const rows = await rowsOf(user.id);
    expect(rows.filter((r: { status: string }) => r.status === 'active')).toHaveLength(1);
    expect(rows.filter((r: { status: string; id: number }) => r.id !== sub.id).every((r: { status: string }) => r.status === 'canceled')).toBe(true);
    await context.close();
  });

  it('subscribes with a card that needs 3-D Secure: the bank page, Complete, then active', async () => {
    const { user, page, context } = await onSelectPlan();
    const card = await chooseAndConfirm(page, monthly);
    await typeCard(page, CARD_NUMBERS.threeDSecure);
    await card.getByRole('button', { name: 'Save card' }).click();
    await expectAlert(page, MESSAGES.cardAdded);

    const bank = page.getByRole('dialog', { name: '3D Secure 2 Test Page' });
    await bank.waitFor();
    await shot(page, '68-three-d-secure');
    expect((await currentSubscription(user))?.status).toBe('pending');
    await bank.getByRole('button', { name: 'Complete' }).click();
    await bank.waitFor({ state: 'detached' });

    // The bank's answer reaches the app through Stripe's webhooks: the app may show the pending
    // page for a moment, which keeps looking until the subscription is active.
    await waitForPath(page, '/funnels');
    await shot(page, '69-after-three-d-secure');
    const sub = await eventually(
      () => currentSubscription(user),
      (s) => s?.status === 'active',
    );
    expect(sub).toMatchObject({ status: 'active', plan_id: monthly.id });
    await context.close();
  });

  it("fails 3-D Secure at the bank: the bank's message, and no active subscription", async () => {
    const { user, page, context } = await onSelectPlan();
    const card = await chooseAndConfirm(page, monthly);
    await typeCard(page, CARD_NUMBERS.threeDSecure);
    await card.getByRole('button', { name: 'Save card' }).click();
    const bank = page.getByRole('dialog', { name: '3D Secure 2 Test Page' });
    await bank.getByRole('button', { name: 'Fail' }).click();
    expect(await expectAlert(page, 'We are unable to authenticate your payment method.')).toBe('error');
    expect(await page.evaluate(() => location.pathname)).toBe('/settings/select-plan');
    expect((await currentSubscription(user))?.status).not.toBe('active');
    await context.close();
  });

  it('pays the invoice of a subscription the admin created (payment_required) on /invoices/pay', async () => {
    const user = await verifiedUser();
    const res = await admin.http.post('/api/admin/subscriptions', { user_id: user.id, plan_id: monthly.id }, admin.token);
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('payment_required');

    const { page, context } = await openApp(browser);
    await routeStripeJs(page);
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/invoices/pay');
    await page.getByText('Payment required').waitFor();
    await page.getByTestId('outstanding-invoice').getByText('$19.00').waitFor();
    await page.getByText('No card on file.').waitFor();
    await shot(page, '70-pay-invoice');

    await page.getByRole('button', { name: 'Pay $19.00' }).click();
    const card = page.locator('[data-modal="stripe-card"]');
    await card.getByText('Add your credit card').waitFor();
    await typeCard(page, CARD_NUMBERS.visa);
    await card.getByRole('button', { name: 'Save card' }).click();
    await expectAlert(page, MESSAGES.cardAdded);
    await expectAlert(page, MESSAGES.invoicePaid);
    await waitForPath(page, '/funnels');
    await shot(page, '71-invoice-paid-funnels-dashboard');

    const sub = await currentSubscription(user);
    expect(sub).toMatchObject({ status: 'active', plan_id: monthly.id });
    const invoices = (await user.http.get(`/api/users/subscriptions/${sub.id}/invoices`, user.token)).body.data;
    expect(invoices.map((i: { status: string }) => i.status)).toEqual(['paid']);
    await context.close();
  });
});
