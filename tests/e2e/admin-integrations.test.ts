import net from 'node:net';
import type { Browser } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { baseUrl, client } from '../api/support/http';
import { removeMailer, smtpSettings } from '../api/support/mail';
import { configureStripe, STRIPE_TEST_KEYS } from '../api/support/stripe';
import { adminSession, type Session } from '../api/support/users';
import { adminInBrowser, atTop } from './support/admin-browser';
import { expectAlert, expectConsoleErrors, launch, failedRequest, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

/** A port nothing listens on (taken from the OS, then released). */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const disconnectStripe = async (admin: Session) => {
  const res = await admin.http.post('/api/admin/stripe/disconnect', {}, admin.token);
  if (res.status !== 200 && res.status !== 409) throw new Error(`disconnect failed: ${res.status}`);
};

describeBrowser('admin: integrations', () => {
  let browser: Browser;
  let admin: Session;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
    // The state this suite starts from: Stripe configured but not connected, no mailer.
    await configureStripe(admin);
    await disconnectStripe(admin);
    await removeMailer();
  });
  afterAll(async () => {
    await browser?.close();
    if (admin) {
      await disconnectStripe(admin);
      await configureStripe(admin);
    }
    await removeMailer();
  });

  it('email: the banner leads to tab 1; a closed port fails verification, the SMTP server passes it; the banner goes', async () => {
    const { page, context } = await adminInBrowser(browser);
    expectConsoleErrors(page, failedRequest(422, '/api/admin/mailer/verify'), 'the SMTP server on a closed port fails verification');
    const banner = page.getByTestId('mailer-banner');
    await banner.getByText('Email Configuration Required').waitFor();
    await banner.getByRole('link', { name: 'Configure email in the integration settings' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/integrations' && url.searchParams.get('tab') === '1');
    expect(await page.getByRole('tab', { name: 'Email' }).getAttribute('aria-selected')).toBe('true');
    const form = page.getByRole('form', { name: 'Transactional email' });
    await form.getByLabel('SMTP host (required)').waitFor();
    await page.getByTestId('mailer-status').getByText('Not configured').waitFor();
    expect(await form.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
    await atTop(page);
    await shot(page, '180-integrations-email');

    // Refusals in the browser: required fields, a bad address.
    await form.getByLabel('From address (required)').fill('not-an-email');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('The host field is required.').waitFor();
    await form.getByText('The from address field must be a valid email address.').waitFor();

    // Saved against a port nothing listens on: configured (the banner goes), but Verify fails.
    const settings = smtpSettings();
    await form.getByLabel('SMTP host (required)').fill(String(settings.host));
    await form.getByLabel('Port (required)').fill(String(await closedPort()));
    await form.getByLabel('Username').fill(String(settings.username));
    await form.getByLabel('Password', { exact: true }).fill(String(settings.password));
    await form.getByLabel('From address (required)').fill('no-reply@branchify.test');
    await form.getByLabel('From name').fill('Branchify E2E');
    await form.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.transactionalEmailUpdated);
    await banner.waitFor({ state: 'detached' });
    await page.getByTestId('mailer-status').getByText('Not verified').waitFor();
    await form.getByRole('button', { name: 'Verify' }).click();
    const failure = page.getByTestId('alert').filter({ hasText: /ECONNREFUSED|connect|Connection/i });
    await failure.first().waitFor();
    expect(await failure.first().getAttribute('class')).toContain('Error');
    await form.locator('#input-host-helper-text').waitFor();
    await atTop(page);
    await shot(page, '181-integrations-email-verify-failed');

    // The right port: saved and verified.
    await form.getByLabel('Port (required)').fill(String(settings.port));
    expect(await form.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.transactionalEmailUpdated);
    await form.getByRole('button', { name: 'Verify' }).click();
    await expectAlert(page, MESSAGES.transactionalEmailVerified);
    await page
      .getByTestId('mailer-status')
      .getByText(/^Verified /)
      .waitFor();
    await atTop(page);
    await shot(page, '182-integrations-email-verified');

    // After a reload the password comes back masked, and saving the form unchanged keeps it.
    await page.reload();
    await form.getByLabel('Password', { exact: true }).waitFor();
    expect(await form.getByLabel('Password', { exact: true }).inputValue()).toBe('********');
    await form.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.transactionalEmailUpdated);
    await page
      .getByTestId('mailer-status')
      .getByText(/^Verified /)
      .waitFor();
    await form.getByRole('button', { name: 'Verify' }).click();
    await expectAlert(page, MESSAGES.transactionalEmailVerified);
    expect((await client().get('/api/customizations')).body.data.mailer_configured).toBe(true);

    // The tabs: by keyboard, and the URL follows them.
    await page.getByRole('tab', { name: 'Email' }).focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('tab') === '0');
    await page.getByRole('heading', { name: 'Stripe', level: 2 }).waitFor();
    await context.close();
  });

  it('stripe: credentials (masked secrets, read-only redirect URL), connect in a popup, disconnect', async () => {
    const { page, context } = await adminInBrowser(browser, 'Pat');
    await page.getByRole('menuitem', { name: 'Integrations' }).click();
    await waitForPath(page, '/admin/integrations');
    const status = page.getByTestId('stripe-status');
    await status.getByText('Configured', { exact: true }).waitFor();
    await status.getByText('Not connected').waitFor();
    await atTop(page);
    await shot(page, '183-integrations-stripe');

    // update-stripe-config: secrets come masked, the redirect URL cannot be edited.
    await page.getByRole('button', { name: 'Update credentials' }).click();
    const modal = page.locator('[data-modal="update-stripe-config"]');
    await modal.getByText('Update Stripe Credentials').waitFor();
    const secret = modal.getByLabel('Secret key', { exact: true });
    await secret.waitFor();
    expect(await secret.inputValue()).toBe(`sk_test_****${STRIPE_TEST_KEYS.secret.slice(-4)}`);
    expect(await secret.getAttribute('type')).toBe('password');
    const redirect = modal.getByRole('textbox', { name: 'Redirect URL' });
    expect(await redirect.inputValue()).toBe('http://localhost:1337/api/stripe/oauth/callback');
    expect(await redirect.getAttribute('readonly')).not.toBeNull();
    await atTop(page);
    await shot(page, '184-integrations-stripe-config');

    // A refusal: a publishable key where the secret goes.
    await secret.fill('pk_test_wrong_place');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('The secret must start with sk_ or rk_.').waitFor();
    await atTop(page);
    await shot(page, '185-integrations-stripe-config-refused');
    // Saved with the real keys.
    await modal.getByLabel('Client ID').fill(STRIPE_TEST_KEYS.client_id);
    await secret.fill(STRIPE_TEST_KEYS.secret);
    await modal.getByLabel('Publishable key').fill(STRIPE_TEST_KEYS.publishable_key);
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.stripeCredentialsUpdated);
    await modal.waitFor({ state: 'detached' });
    const config = (await admin.http.get('/api/admin/stripe/config', admin.token)).body.data;
    expect(config).toMatchObject({ client_id: STRIPE_TEST_KEYS.client_id, publishable_key: STRIPE_TEST_KEYS.publishable_key, configured: true });

    // Connect: a popup opens on the OAuth URL the API built; Stripe (played here by a route that
    // approves at once) sends it back through the callback; the popup reports and closes.
    const authorize: URL[] = [];
    await context.route(
      (url) => url.pathname === '/oauth/authorize',
      async (route) => {
        const url = new URL(route.request().url());
        authorize.push(url);
        const back = `${baseUrl()}/api/stripe/oauth/callback?code=ac_test_e2e_${Date.now()}&state=${encodeURIComponent(url.searchParams.get('state') ?? '')}`;
        await route.fulfill({ status: 302, headers: { location: back } });
      },
    );
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Connect' }).click();
    const popup = await popupOpened;
    await popup.waitForEvent('close');
    expect(authorize).toHaveLength(1);
    expect(authorize[0]!.searchParams.get('client_id')).toBe(STRIPE_TEST_KEYS.client_id);
    expect(authorize[0]!.searchParams.get('redirect_uri')).toBe('http://localhost:1337/api/stripe/oauth/callback');
    expect(authorize[0]!.searchParams.get('response_type')).toBe('code');
    await expectAlert(page, MESSAGES.stripeConnected);
    await status.getByText('Connected', { exact: true }).waitFor();
    await status.getByText(/acct_/).waitFor();
    await atTop(page);
    await shot(page, '186-integrations-stripe-connected');

    // Disconnect, after a confirmation.
    await page.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.locator('[data-modal="quick-notice"]');
    await confirm.getByText('Users cannot pay until a Stripe account is connected again.', { exact: false }).waitFor();
    await atTop(page);
    await shot(page, '187-integrations-stripe-disconnect');
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await expectAlert(page, MESSAGES.stripeDisconnected);
    await status.getByText('Not connected').waitFor();
    expect((await admin.http.get('/api/admin/stripe', admin.token)).body.data.connected).toBe(false);
    await context.close();
  });

  it('stripe: the callback opened in the panel itself says what happened', async () => {
    const { page, context } = await adminInBrowser(browser, 'Lee');
    await page.goto('/admin/integrations?tab=0&stripe=invalid-state');
    expect(await expectAlert(page, MESSAGES.stripeStateInvalid)).toBe('error');
    await page.waitForURL((url) => url.searchParams.get('stripe') === null && url.searchParams.get('tab') === '0');
    await context.close();
  });
});
