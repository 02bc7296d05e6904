import type { Browser } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { freePlan, subscribedUser } from '../api/support/content';
import { configureStripe, createPlan } from '../api/support/stripe';
import { adminSession, registerUser, verifiedUser, type Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

/** After login: by role, verification and subscription status. */
describeBrowser('web app: login routing', () => {
  let browser: Browser;
  let admin: Session;
  let plan: { id: number };
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
    plan = await freePlan(admin);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const loginLandsOn = async (email: string, password: string, path: string, screenshot?: string) => {
    const { page, context } = await openApp(browser);
    await loginViaUi(page, email, password);
    await waitForPath(page, path);
    await expectAlert(page, MESSAGES.welcomeBack);
    if (screenshot) await shot(page, screenshot);
    return { page, context };
  };

  it('sends the admin to UsersList (the react-admin panel)', async () => {
    // The list shows the newest accounts first: the one made just now is on its first page
    // however many accounts the other suites created.
    const newest = await registerUser();
    const { page, context } = await loginLandsOn(process.env.BRANCHIFY_ADMIN_EMAIL!, process.env.BRANCHIFY_ADMIN_PASSWORD!, '/admin/users');
    await page.getByText(newest.email).first().waitFor();
    await shot(page, '10-admin-users');
    await context.close();
  });

  it('sends an unverified user to VerifyNotice', async () => {
    const user = await registerUser();
    const { context } = await loginLandsOn(user.email, user.password, '/verify-notice');
    await context.close();
  });

  it('sends a verified user without a subscription to SelectSubscriptionPlan', async () => {
    const user = await verifiedUser();
    const { context } = await loginLandsOn(user.email, user.password, '/settings/select-plan');
    await context.close();
  });

  it('sends an active subscriber to the funnels dashboard, and keeps signed-in users off the public pages', async () => {
    const user = await subscribedUser(admin, plan.id);
    const { page, context } = await loginLandsOn(user.email, user.password, '/funnels');
    await page.goto('/login');
    await waitForPath(page, '/funnels');
    // Guard step 4: a non-admin on an admin route goes to the dashboard.
    await page.goto('/admin/users');
    await waitForPath(page, '/funnels');
    await context.close();
  });

  it('keeps the session when a reload cancels the answer that renewed it', async () => {
    const user = await subscribedUser(admin, plan.id);
    const { page, context } = await loginLandsOn(user.email, user.password, '/funnels');
    // The server renews the session, but the browser never reads the answer (nor its new cookie),
    // as when the user reloads or follows a link while the page is still starting.
    const cookieBefore = (await context.cookies()).find((c) => c.name === 'branchify_refresh')!;
    let dropped = (): void => undefined;
    const renewedAndDropped = new Promise<void>((resolve) => (dropped = resolve));
    await page.route(
      '**/api/auth/refresh-token',
      async (route) => {
        const answer = await route.fetch();
        // Playwright's fetch stored the new cookie; the browser in this story never did.
        await context.addCookies([cookieBefore]);
        await route.abort('aborted');
        if (answer.status() === 200) dropped();
      },
      { times: 1 },
    );
    expectConsoleErrors(page, /net::ERR_ABORTED|Failed to fetch/, 'the test drops the renewed session on its way to the page');
    await page.reload();
    await renewedAndDropped;
    for (const path of ['/funnels', '/settings']) {
      await page.goto(path);
      await waitForPath(page, path);
    }
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await context.close();
  });

  it('sends a user whose subscription was canceled in the past to SelectSubscriptionPlan', async () => {
    const user = await subscribedUser(admin, plan.id);
    const sub = (await user.http.get('/api/users/subscriptions', user.token)).body.data;
    const res = await user.http.post(`/api/users/subscriptions/${sub.id}/cancel`, { period: 'immediately' }, user.token);
    expect(res.status).toBe(200);
    const { context } = await loginLandsOn(user.email, user.password, '/settings/select-plan');
    await context.close();
  });

  it('sends a user with an unpaid subscription to PayOutstandingInvoice', async () => {
    await configureStripe(admin);
    const paid = await createPlan(admin, { price: '12.00', payment_schedule: 'monthly' });
    const user = await verifiedUser();
    const res = await admin.http.post('/api/admin/subscriptions', { user_id: user.id, plan_id: paid.id }, admin.token);
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('payment_required');
    const { page, context } = await loginLandsOn(user.email, user.password, '/invoices/pay', '11-pay-outstanding-invoice');
    await page.getByText('Payment required').waitFor();
    await context.close();
  });

  it('sends unauthenticated visitors of the user area to login', async () => {
    const { page, context } = await openApp(browser);
    await page.goto('/library');
    await waitForPath(page, '/login');
    await shot(page, '12-login');
    await context.close();
  });
});
