import type { Browser } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { freePlan } from '../api/support/content';
import { findLoggedLink } from '../api/support/log';
import { adminSession, uniqueEmail } from '../api/support/users';
import { expectAlert, expectConsoleErrors, failedRequest, launch, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

describeBrowser('web app: register → verify → free plan → dashboard', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('takes a new user from the register page to an empty funnels dashboard', async () => {
    const admin = await adminSession();
    const plan = (await freePlan(admin)) as { id: number; name: string };
    const planName = plan.name;
    const { page, context } = await openApp(browser);
    const email = uniqueEmail('e2e-onboard');

    await page.goto('/register');
    await page.locator('input[name=first_name]').waitFor();
    await shot(page, '01-register');
    await page.locator('input[name=first_name]').fill('Grace');
    await page.locator('input[name=last_name]').fill('Hopper');
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill('e2e-password-1');
    await page.locator('input[name=password_confirmation]').fill('e2e-password-1');
    await page.getByRole('button', { name: 'Register' }).click();

    await waitForPath(page, '/verify-notice');
    expect(await expectAlert(page, MESSAGES.accountCreated)).toBe('success');
    await page.getByText(email).waitFor();
    await shot(page, '02-verify-notice');

    // The guard keeps an unverified user out of the user area.
    await page.goto('/funnels');
    await waitForPath(page, '/verify-notice');

    const link = await findLoggedLink('verification', email);
    expect(link).toBeDefined();
    const query = new URL(link!).search;
    // A full page load: the session comes back through the refresh cookie.
    await page.goto(`/email-verify${query}`);
    await waitForPath(page, '/account-verified');
    await expectAlert(page, MESSAGES.accountVerified);
    await shot(page, '03-account-verified');

    await page.getByRole('button', { name: 'Continue' }).click();
    await waitForPath(page, '/settings/select-plan');
    await page.getByTestId('plan-card').filter({ hasText: planName }).waitFor();
    await shot(page, '04-select-plan');

    await page.getByRole('button', { name: `Choose ${planName}` }).click();
    const confirm = page.locator('[data-modal="create-or-change-subscription-by-user"]');
    await confirm.getByText('Confirm Subscription').waitFor();
    await confirm.getByRole('button', { name: 'Confirm' }).click();

    await waitForPath(page, '/funnels');
    await expectAlert(page, MESSAGES.subscriptionCreated);
    await page.getByTestId('funnels-empty').waitFor();
    await page.getByTestId('profile-block').getByText('GH').waitFor();
    await shot(page, '05-funnels-dashboard-empty');

    // A reload restores the session and stays on the dashboard.
    await page.reload();
    await page.getByTestId('funnels-empty').waitFor();
    expect(new URL(page.url()).pathname).toBe('/funnels');
    await context.close();
  });

  it("checks the form in the browser with the server's rules, and shows the server's refusal under its field", async () => {
    const admin = await adminSession();
    const { page, context } = await openApp(browser);
    expectConsoleErrors(page, failedRequest(422, '/api/auth/register'), 'what only the server can check is refused by it');
    const registerCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/register')) registerCalls.push(r.method());
    });
    await page.goto('/register');

    // Empty and mistyped fields: the shared schema's messages under each input, nothing sent.
    await page.locator('input[name=email]').fill('not-an-email');
    await page.locator('input[name=password]').fill('short');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.locator('#input-first_name-helper-text').getByText('The first name field is required.').waitFor();
    await page.locator('#input-email-helper-text').getByText('The email field must be a valid email address.').waitFor();
    await page.locator('#input-password-helper-text').getByText('The password field must be at least 8 characters.').waitFor();
    expect(await page.locator('input[name=email]').getAttribute('aria-invalid')).toBe('true');
    // The first invalid field has the focus, for a keyboard or screen-reader user.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('first_name');
    expect(registerCalls).toEqual([]);
    await shot(page, '06-register-errors');

    // Fixing a field clears its message as the user types.
    await page.locator('input[name=first_name]').fill('Ada');
    await page.locator('#input-first_name-helper-text').waitFor({ state: 'detached' });

    // What only the server knows (the email is taken): the red alert and the message under the email.
    await page.locator('input[name=last_name]').fill('Lovelace');
    await page.locator('input[name=email]').fill(admin.email);
    await page.locator('input[name=password]').fill('e2e-password-1');
    await page.locator('input[name=password_confirmation]').fill('e2e-password-1');
    await page.getByRole('button', { name: 'Register' }).click();
    expect(await expectAlert(page, MESSAGES.emailTaken)).toBe('error');
    await page.locator('#input-email-helper-text').getByText(MESSAGES.emailTaken).waitFor();
    expect(registerCalls).toEqual(['POST']);
    await shot(page, '06b-register-server-refusal');
    await context.close();
  });
});
