import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MESSAGES, messageTemplates } from '@branchify/shared';
import { CARDS, configureStripe, createPlan, currentSubscription } from '../api/support/stripe';
import { adminSession, verifiedUser, type Session } from '../api/support/users';
import { expectAlert, launch, loginViaUi, openApp, shot, shotAtBothWidths, still, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

type Plan = { id: number; name: string };

/** A date as the app writes it ('Nov 25, 2026'). */
const shown = (iso: string) => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso));

/**
 * Cancelling, as the user lives it: the cancel modal says what happens to their live funnels and
 * when; the dashboard then says when they go (or went) offline, with Resume and Choose a plan;
 * Choose a plan offers Resume; and after an administrator ended the subscription, the user reads
 * that sentence instead of a Resume that could only fail.
 */
describeBrowser('web app: cancelling a subscription', () => {
  let browser: Browser;
  let admin: Session;
  let pro: Plan;
  let context: BrowserContext | null = null;

  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
    await configureStripe(admin);
    pro = await createPlan(admin, { name: `Pro ${Math.random().toString(36).slice(2, 6)}`, price: '19.00', payment_schedule: 'monthly' });
  });
  afterEach(async () => {
    await context?.close();
    context = null;
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A user who bought Pro with a card, signed in through the UI. */
  const payingUser = async () => {
    const user = await verifiedUser();
    const res = await user.http.post('/api/users/subscriptions', { plan_id: pro.id, payment_method_id: CARDS.visa }, user.token);
    if (res.body.data?.status !== 'active') throw new Error(`subscribe failed: ${res.status} ${JSON.stringify(res.body)}`);
    const opened = await openApp(browser);
    context = opened.context;
    return { user, page: opened.page, subscription: res.body.data as { id: number; renews_at: string } };
  };

  const banner = (page: Page) => page.getByTestId('subscription-ended-banner');

  it('says what happens to live funnels and when; the dashboard then offers Resume and Choose a plan', async () => {
    const { user, page, subscription } = await payingUser();
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    await page.getByRole('heading', { name: 'Funnels', level: 1 }).waitFor();
    expect(await banner(page).count()).toBe(0);

    await page.goto('/settings');
    await page.getByRole('region', { name: 'Subscription' }).getByRole('button', { name: 'Cancel' }).click();
    const modal = page.locator('[data-modal="cancel-subscription-by-user"]');
    const notice = modal.getByTestId('cancel-funnels-notice');
    expect(await notice.innerText()).toBe(messageTemplates.funnelsOfflineAtPeriodEnd(shown(subscription.renews_at)));
    await modal.getByLabel('Immediately').check();
    expect(await notice.innerText()).toBe(MESSAGES.funnelsOfflineAtOnce);
    await still(page);
    await shot(page, '240-cancel-modal-funnels-notice');
    await modal.getByLabel(/At the end of the billing period/).check();
    await modal.getByRole('button', { name: 'Cancel subscription' }).click();
    expect(await expectAlert(page, MESSAGES.subscriptionCancelled)).toBe('success');
    await modal.waitFor({ state: 'detached' });

    // Within the period: the funnels are still online, and the banner says until when.
    await page.goto('/funnels');
    await banner(page)
      .getByText(messageTemplates.funnelsGoOffline(shown(subscription.renews_at)))
      .waitFor();
    await banner(page).getByRole('button', { name: 'Resume' }).waitFor();
    await banner(page).getByRole('button', { name: 'Choose a plan' }).waitFor();
    await shotAtBothWidths(page, '241-dashboard-cancelled-in-period');

    // Choose a plan offers Resume (the user cancelled it themselves).
    await banner(page).getByRole('button', { name: 'Choose a plan' }).click();
    await waitForPath(page, '/settings/select-plan');
    const offer = page.getByTestId('resume-offer');
    await offer.getByText(messageTemplates.resumeInstead(pro.name)).waitFor();
    await shotAtBothWidths(page, '242-choose-plan-offers-resume');
    await offer.getByRole('button', { name: 'Resume' }).click();
    expect(await expectAlert(page, MESSAGES.subscriptionResumed)).toBe('success');
    await waitForPath(page, '/funnels');
    expect((await currentSubscription(user)).status).toBe('active');
    expect(await banner(page).count()).toBe(0);

    // Ended at once: the funnels are offline since the cancellation.
    const ended = await user.http.post(`/api/users/subscriptions/${subscription.id}/cancel`, { period: 'immediately' }, user.token);
    expect(ended.status).toBe(200);
    await page.reload();
    await banner(page)
      .getByText(messageTemplates.funnelsOffline(shown(ended.body.data.canceled_at)))
      .waitFor();
    await shotAtBothWidths(page, '243-dashboard-funnels-offline');
    await banner(page).getByRole('button', { name: 'Resume' }).click();
    expect(await expectAlert(page, MESSAGES.subscriptionResumed)).toBe('success');
    await banner(page).waitFor({ state: 'detached' });
    expect((await currentSubscription(user)).status).toBe('active');
  });

  it('after an administrator ended the subscription, says so instead of offering Resume', async () => {
    const { user, page, subscription } = await payingUser();
    const cancelled = await admin.http.post(
      `/api/admin/subscriptions/${subscription.id}/cancel`,
      { period: 'immediately', cancellation_note: 'Chargeback' },
      admin.token,
    );
    expect(cancelled.status).toBe(200);
    // What a Resume would answer.
    expect((await user.http.post(`/api/users/subscriptions/${subscription.id}/resume`, {}, user.token)).body.message).toBe(MESSAGES.endedByAdministrator);

    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/settings/select-plan');
    await page.getByTestId('ended-by-admin').getByText(MESSAGES.endedByAdministrator).waitFor();
    expect(await page.getByTestId('resume-offer').count()).toBe(0);
    await shotAtBothWidths(page, '244-choose-plan-ended-by-admin');

    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Subscription' });
    await section.getByTestId('ended-by-admin').getByText(MESSAGES.endedByAdministrator).waitFor();
    expect(await section.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    await shotAtBothWidths(page, '245-settings-ended-by-admin');

    await page.goto('/funnels');
    await banner(page).getByText(MESSAGES.endedByAdministrator).waitFor();
    expect(await banner(page).getByRole('button', { name: 'Resume' }).count()).toBe(0);
    await banner(page).getByRole('button', { name: 'Choose a plan' }).waitFor();
  });
});
