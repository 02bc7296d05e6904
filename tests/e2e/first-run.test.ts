import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { startFreshInstall, type FreshInstall } from '../harness/fresh-install';
import { linkIn, sink, smtpSettings } from '../api/support/mail';
import { STRIPE_TEST_KEYS } from '../api/support/stripe';
import { expectAlert, launch, shot, shotAtBothWidths, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

const PASSWORD = 'first-run-pass-1';

interface Person {
  first: string;
  last: string;
  email: string;
}

/** A browser of its own (no cookies) on a fresh install; nothing outside it is reachable. */
const openInstall = async (browser: Browser, install: FreshInstall, contexts: BrowserContext[]): Promise<Page> => {
  const context = await browser.newContext({ baseURL: install.url, viewport: { width: 1280, height: 860 } });
  contexts.push(context);
  const origin = new URL(install.url).origin;
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.abort('internetdisconnected'),
  );
  context.setDefaultTimeout(15_000);
  return context.newPage();
};

const register = async (page: Page, person: Person) => {
  await page.goto('/register');
  await page.locator('input[name=first_name]').fill(person.first);
  await page.locator('input[name=last_name]').fill(person.last);
  await page.locator('input[name=email]').fill(person.email);
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.locator('input[name=password_confirmation]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
};

/** A newcomer's email verified from the mail they received: they land on "Choose a plan". */
const verifyFromMail = async (page: Page, person: Person) => {
  await waitForPath(page, '/verify-notice');
  const [mail] = await sink.waitFor(person.email, (m) => /verif/i.test(m.subject));
  await page.goto(linkIn(mail!, '/email-verify'));
  await waitForPath(page, '/account-verified');
  await page.getByRole('button', { name: 'Continue' }).click();
  await waitForPath(page, '/settings/select-plan');
};

/** The admin's API session, for what other screens of the panel set up (mail, Stripe, branding, plans). */
const adminApi = async (install: FreshInstall, email: string) => {
  const res = await fetch(`${install.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
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

/**
 * The first run, from the browser, on a fresh install: the first account becomes the admin and
 * lands on the setup checklist, follows it to create plans (a paid one, which no new user can pick
 * before Stripe works, leaves the step open; a free one ticks it), and the next person
 * to register verifies their email from the mail they receive, picks that plan and reaches the
 * funnels dashboard. The rest of the checklist ticks from the installation's state, and once
 * every step is done the admin dismisses it.
 */
describeBrowser('first run from the browser', () => {
  let install: FreshInstall;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    install = await startFreshInstall();
    browser = await launch();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await install?.stop();
  });

  const openPage = () => openInstall(browser, install, contexts);

  it('takes the first admin through the checklist and the next person to the dashboard', async () => {
    const owner = { first: 'Olga', last: 'Owner', email: `owner-${Date.now().toString(36)}@example.test` };
    const admin = await openPage();

    // The first account becomes the admin and lands on the checklist, nothing done yet.
    await register(admin, owner);
    await waitForPath(admin, /^\/admin\/users/);
    await expectAlert(admin, MESSAGES.accountCreated);
    const checklist = admin.getByTestId('setup-checklist');
    await checklist.getByRole('heading', { name: 'Set up branchify' }).waitFor();
    await checklist.getByText('0 of 4 steps done').waitFor();
    const steps = checklist.getByRole('list', { name: 'Setup steps' });
    const step = (name: string) => steps.getByRole('listitem').filter({ has: admin.getByRole('link', { name, exact: true }) });
    // Each step links to its screen, and says whether it is done.
    const links = {
      'Create a plan': '/admin/plans/create',
      'Set up email': '/admin/integrations?tab=1',
      'Connect Stripe': '/admin/integrations?tab=0',
      'Brand the app': '/admin/app-customization',
    };
    for (const [name, href] of Object.entries(links)) {
      expect(await step(name).getByRole('link').getAttribute('href')).toBe(href);
      await step(name).getByText('To do', { exact: true }).waitFor();
    }
    await shot(admin, '160-first-run-checklist');

    // It folds away (remembered across a reload) and opens again.
    await checklist.getByRole('button', { name: 'Hide steps' }).click();
    await steps.waitFor({ state: 'hidden' });
    expect(await checklist.getByRole('button', { name: 'Show steps' }).getAttribute('aria-expanded')).toBe('false');
    await admin.reload();
    await checklist.getByText('0 of 4 steps done').waitFor();
    expect(await steps.isVisible()).toBe(false);
    await checklist.getByRole('button', { name: 'Show steps' }).click();
    await steps.waitFor();

    // No plan yet: the plans page says so and offers to create one.
    await admin.getByRole('menuitem', { name: 'Plans' }).click();
    await admin.getByTestId('plans-empty').getByText('No plans yet').waitFor();
    await shot(admin, '161-first-run-plans-empty');

    // Following the checklist (on the landing page): a paid plan first, which Stripe (not connected yet) must be able to sell.
    await admin.getByRole('menuitem', { name: 'Users' }).click();
    await step('Create a plan').getByRole('link').click();
    await waitForPath(admin, '/admin/plans/create');
    await admin.getByLabel('Name', { exact: true }).fill('Pro');
    await admin.getByLabel('Price', { exact: true }).fill('15');
    await admin.getByTestId('plan-stripe-warning').getByText(MESSAGES.planNeedsStripe).waitFor();
    await shot(admin, '162-first-run-paid-plan-needs-stripe');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expectAlert(admin, MESSAGES.planCreated);
    await waitForPath(admin, '/admin/plans');
    await admin.getByRole('row').filter({ hasText: 'Pro' }).getByText('$15.00/month').waitFor();
    await admin.getByRole('row').filter({ hasText: 'Pro' }).getByText('Not offered to users until Stripe payments work').waitFor();
    await admin.getByTestId('plan-stripe-warning').waitFor();
    // No new user could pick it yet, so the step stays open.
    await admin.getByRole('menuitem', { name: 'Users' }).click();
    await checklist.getByText('0 of 4 steps done').waitFor();
    await step('Create a plan').getByText('To do', { exact: true }).waitFor();
    expect(await step('Create a plan').getAttribute('data-done')).toBe('false');

    // And a free plan, which needs nothing else.
    await admin.getByRole('menuitem', { name: 'Plans' }).click();
    await admin.getByRole('link', { name: 'Create plan' }).first().click();
    await admin.getByLabel('Name', { exact: true }).fill('Starter');
    await admin.getByRole('combobox', { name: 'Payment schedule' }).click();
    await admin.getByRole('option', { name: 'Free', exact: true }).click();
    expect(await admin.getByTestId('plan-stripe-warning').count()).toBe(0);
    await admin.getByLabel('Max funnels').fill('3');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expectAlert(admin, MESSAGES.planCreated);
    await admin.getByRole('row').filter({ hasText: 'Starter' }).getByText('Free').first().waitFor();
    await shot(admin, '163-first-run-plans');
    // A plan a new user can pick: the step is ticked, and now leads to the plans.
    await admin.getByRole('menuitem', { name: 'Users' }).click();
    await checklist.getByText('1 of 4 steps done').waitFor();
    await step('Create a plan').getByText('Done', { exact: true }).waitFor();
    expect(await step('Create a plan').getAttribute('data-done')).toBe('true');

    // Email, set up on the Integrations screen (here through its API): the step ticks on the next visit.
    const call = await adminApi(install, owner.email);
    await call('PUT', 'admin/mailer', smtpSettings());
    await admin.getByRole('menuitem', { name: 'Plans' }).click();
    await admin.getByRole('menuitem', { name: 'Users' }).click();
    await waitForPath(admin, '/admin/users');
    await checklist.getByText('2 of 4 steps done').waitFor();
    await step('Set up email').getByText('Done', { exact: true }).waitFor();
    // The mail banner goes with it.
    await admin.getByTestId('mailer-banner').waitFor({ state: 'detached' });

    // The next person: not an admin, verifies their email from the mail, picks the plan.
    const person = { first: 'Nina', last: 'Newcomer', email: `newcomer-${Date.now().toString(36)}@example.test` };
    const user = await openPage();
    await register(user, person);
    await verifyFromMail(user, person);
    await user.getByTestId('plan-card').filter({ hasText: 'Starter' }).waitFor();
    await shot(user, '164-first-run-newcomer-plans');
    await user.getByRole('button', { name: 'Choose Starter' }).click();
    const confirm = user.locator('[data-modal="create-or-change-subscription-by-user"]');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await waitForPath(user, '/funnels');
    await expectAlert(user, MESSAGES.subscriptionCreated);
    await user.getByTestId('funnels-empty').waitFor();
    await shot(user, '165-first-run-newcomer-dashboard');
    // The admin panel is not theirs.
    await user.goto('/admin/plans');
    await waitForPath(user, '/funnels');

    // Stripe and the branding, done on their screens: the checklist is complete and can be dismissed.
    await call('PUT', 'admin/stripe/config', STRIPE_TEST_KEYS);
    // The branding through its screen: the step is ticked on Save, without a reload.
    await step('Brand the app').getByRole('link').click();
    await waitForPath(admin, '/admin/app-customization');
    await admin.getByLabel('App name (required)').fill('Olga Videos');
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await expectAlert(admin, MESSAGES.appCustomizationUpdated);
    await admin.getByRole('menuitem', { name: 'Users' }).click();
    await step('Brand the app').getByText('Done', { exact: true }).waitFor();
    await checklist.getByRole('heading', { name: 'Setup complete' }).waitFor();
    await checklist.getByText('4 of 4 steps done').waitFor();
    await admin.getByRole('menuitem', { name: 'Plans' }).click();
    // The new branding reaches the panel too.
    await admin.waitForFunction(() => document.title === 'Plans | Olga Videos');
    // Stripe configured: the paid plan can be sold now.
    await admin.getByRole('row').filter({ hasText: 'Pro' }).getByText('$15.00/month').waitFor();
    // (The list shown from before Stripe was connected is read again on the way back to it.)
    await admin.getByText('Not offered to users until Stripe payments work').first().waitFor({ state: 'detached' });
    await admin.getByRole('menuitem', { name: 'Users' }).click();
    await checklist.getByRole('heading', { name: 'Setup complete' }).waitFor();
    await shot(admin, '166-first-run-setup-complete');
    await checklist.getByRole('button', { name: 'Dismiss' }).click();
    await expectAlert(admin, MESSAGES.setupDismissed);
    await checklist.waitFor({ state: 'detached' });
    await admin.reload();
    await admin.getByRole('row').filter({ hasText: owner.email }).waitFor();
    expect(await checklist.count()).toBe(0);
    await shot(admin, '167-first-run-checklist-dismissed');
  });
});

/**
 * A new install where no plan is one a new user can pick: the demo's kind of plan (free, hidden)
 * and a paid plan waiting for Stripe. The checklist's plan step stays open, and a new user on
 * "Choose a plan" reads that there is none and whom to contact: the branding's support address,
 * or, before one is set, that there is none yet (no dead link).
 */
describeBrowser('first run with no plan a new user can pick', () => {
  let install: FreshInstall;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    install = await startFreshInstall();
    browser = await launch();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await install?.stop();
  });

  it('keeps the plan step open, and tells newcomers there is no plan and whom to contact', async () => {
    const owner = { first: 'Olga', last: 'Owner', email: `owner-${Date.now().toString(36)}@example.test` };
    const admin = await openInstall(browser, install, contexts);
    await register(admin, owner);
    await waitForPath(admin, /^\/admin\/users/);
    const call = await adminApi(install, owner.email);
    await call('PUT', 'admin/mailer', smtpSettings());
    const plan = { currency: 'usd', managed_by: 'platform', max_funnel: null, max_branch_per_funnel: null, video_sources: null };
    await call('POST', 'admin/plans', { ...plan, name: 'Demo', price: '0', payment_schedule: 'free', is_active: false });
    await call('POST', 'admin/plans', { ...plan, name: 'Pro', price: '15', payment_schedule: 'monthly' });

    // Two plans, but neither one a new user can pick: the step is still to do.
    await admin.getByRole('menuitem', { name: 'Plans' }).click();
    await admin.getByRole('row').filter({ hasText: 'Pro' }).getByText('Not offered to users until Stripe payments work').waitFor();
    await admin.getByRole('menuitem', { name: 'Users' }).click();
    const checklist = admin.getByTestId('setup-checklist');
    await checklist.getByText('1 of 4 steps done').waitFor();
    const planStep = checklist.locator('[data-step="plan"]');
    await planStep.getByText('To do', { exact: true }).waitFor();
    expect(await planStep.getAttribute('data-done')).toBe('false');
    await shot(admin, '168-first-run-no-pickable-plan-checklist');

    // A newcomer: no plan to choose, and no support address published yet.
    const person = { first: 'Nina', last: 'Newcomer', email: `newcomer-${Date.now().toString(36)}@example.test` };
    const user = await openInstall(browser, install, contexts);
    await register(user, person);
    await verifyFromMail(user, person);
    const empty = user.getByTestId('choose-plan-empty');
    await empty.getByText(MESSAGES.noPlansAvailable).waitFor();
    await empty.getByText(MESSAGES.noSupportAddress).waitFor();
    expect(await empty.getByRole('link').count()).toBe(0);
    expect(await user.getByTestId('plan-card').count()).toBe(0);
    await shotAtBothWidths(user, '169-first-run-no-plans-no-support-address');

    // The admin publishes a support address (Branding): the newcomer's page links to it.
    await call('POST', 'admin/customizations', { app_support_url: 'mailto:help@olga-videos.example' });
    await user.reload();
    await empty.getByText(MESSAGES.noPlansAvailable).waitFor();
    const contact = empty.getByRole('link', { name: 'help@olga-videos.example' });
    await contact.waitFor();
    expect(await contact.getAttribute('href')).toBe('mailto:help@olga-videos.example');
    expect(await empty.getByTestId('choose-plan-support').textContent()).toBe('Contact support at help@olga-videos.example.');
    expect(await empty.getByText(MESSAGES.noSupportAddress).count()).toBe(0);
    await shotAtBothWidths(user, '169b-first-run-no-plans-support-link');
  });
});
