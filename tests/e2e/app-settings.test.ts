import type { Browser } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { freePlan, subscribedUser } from '../api/support/content';
import { adminSession } from '../api/support/users';
import { expectAlert, expectConsoleErrors, failedRequest, launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

describeBrowser('web app: settings', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the subscription, cancels at once and resumes it', async () => {
    const admin = await adminSession();
    const plan = (await freePlan(admin)) as { id: number; name: string };
    const user = await subscribedUser(admin, plan.id);
    const { page, context } = await openApp(browser);
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const section = page.getByRole('region', { name: 'Subscription' });
    await section.getByText(plan.name).waitFor();
    await section.getByText('Free').waitFor();
    await shot(page, '40-settings');

    await section.getByRole('button', { name: 'Cancel' }).click();
    const modal = page.locator('[data-modal="cancel-subscription-by-user"]');
    await modal.getByRole('button', { name: 'Cancel subscription' }).click();
    await expectAlert(page, MESSAGES.subscriptionCancelled);
    await section.getByRole('button', { name: 'Resume' }).click();
    await expectAlert(page, MESSAGES.subscriptionResumed);
    await section.getByRole('button', { name: 'Cancel' }).waitFor();
    await context.close();
  });

  it('changes the password, logs the user out, and the new password logs in', async () => {
    const admin = await adminSession();
    const plan = await freePlan(admin);
    const user = await subscribedUser(admin, plan.id);
    const { page, context } = await openApp(browser);
    expectConsoleErrors(page, failedRequest(422, '/api/auth/password/change'), 'a wrong current password is refused');
    expectConsoleErrors(page, failedRequest(422, '/api/auth/login'), 'the old password no longer signs in');
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Change password' }).click();
    const modal = page.locator('[data-modal="change-user-password"]');
    await modal.getByText('Change password').first().waitFor();

    // A wrong current password: the field error under its input.
    await modal.locator('input[name=current_password]').fill('not-my-password');
    await modal.locator('input[name=password]').fill('brand-new-pass-9');
    await modal.locator('input[name=password_confirmation]').fill('brand-new-pass-9');
    await modal.getByRole('button', { name: 'Change', exact: true }).click();
    await modal.locator('#input-current_password-helper-text').waitFor();
    await shot(page, '41-change-password-error');

    await modal.getByRole('button', { name: 'Show Current password' }).click();
    expect(await modal.locator('input[name=current_password]').getAttribute('type')).toBe('text');
    await modal.locator('input[name=current_password]').fill(user.password);
    await modal.getByRole('button', { name: 'Change', exact: true }).click();
    await waitForPath(page, '/login');
    await expectAlert(page, MESSAGES.passwordChanged);

    await loginViaUi(page, user.email, user.password);
    await page.locator('#input-email-helper-text').waitFor();
    await loginViaUi(page, user.email, 'brand-new-pass-9');
    await waitForPath(page, '/funnels');
    await context.close();
  });
});
