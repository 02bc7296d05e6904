import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import type { Session } from '../api/support/users';
import { receiver, receiverUrl, verifySignature } from '../api/support/webhooks';
import { expectAlert, expectConsoleErrors, launch, openAdminPanel, failedRequest, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

/** The helper text (or error) under a react-admin input. */
const helper = (page: Page, source: string) => page.locator(`.ra-input-${source} .MuiFormHelperText-root`);

/**
 * Webhooks in the admin panel (/admin/webhooks): add an endpoint (an internal address refused at
 * the field), the signing secret shown once, the delivery log with each attempt, Resend.
 */
describeBrowser('admin panel: webhooks', () => {
  let browser: Browser;
  let admin: Session;
  let page: Page;

  beforeAll(async () => {
    browser = await launch();
    ({ admin, page } = await openAdminPanel(browser));
  });
  let endpointId: string | null = null;
  afterAll(async () => {
    // Later suites' events are not sent to this run's receiver.
    if (endpointId) await admin.http.delete(`/api/admin/webhooks/${endpointId}`, admin.token);
    await browser?.close();
  });

  it('adds an endpoint, shows its secret once, and logs every delivery attempt with a Resend button', async () => {
    expectConsoleErrors(page, failedRequest(422, '/api/admin/webhooks'), 'an endpoint on a private address: only the server can refuse it');
    await page.getByRole('menuitem', { name: 'Webhooks' }).click();
    await waitForPath(page, '/admin/webhooks');
    await page.getByRole('link', { name: 'Add endpoint' }).first().waitFor();
    // On an install without endpoints: what webhooks are for.
    if (await page.getByTestId('webhooks-empty').isVisible()) await shot(page, '240-webhooks-empty');

    await page.getByRole('link', { name: 'Add endpoint' }).first().click();
    await waitForPath(page, '/admin/webhooks/create');
    await page.getByLabel('Endpoint URL').fill('http://example.com/hook');
    await page.getByRole('button', { name: 'Save' }).click();
    await helper(page, 'url').getByText(MESSAGES.webhookUrlNotHttps).waitFor();
    await helper(page, 'events').getByText(MESSAGES.webhookEventsRequired).waitFor();

    // Only the server knows where a name points: its refusal lands at the field.
    await page.getByLabel('Endpoint URL').fill('https://localhost/hook');
    await page.getByRole('checkbox', { name: 'Funnel viewed (funnel.viewed)' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await helper(page, 'url').getByText(MESSAGES.webhookUrlPrivate).waitFor();
    expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    await shot(page, '241-webhook-create-refused');

    const url = receiverUrl('e2e');
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('Description').fill('Suite CRM');
    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Signing secret' });
    await dialog.waitFor();
    const secret = await page.getByTestId('webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shot(page, '242-webhook-secret');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await waitForPath(page, /^\/admin\/webhooks\/\d+$/);
    endpointId = new URL(page.url()).pathname.split('/').pop()!;

    // A new endpoint has sent nothing yet; it shows only the end of its secret from now on.
    await page.getByTestId('deliveries-empty').waitFor();
    await page.getByText(`whsec_****${secret.slice(-4)}`).waitFor();
    expect(await page.content()).not.toContain(secret);
    await shot(page, '243-webhook-deliveries-empty');

    // The receiver fails once, then accepts: both attempts are listed.
    await receiver.script(url, [500, 200]);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expectAlert(page, MESSAGES.webhookTestQueued);
    const row = page.getByTestId('delivery-row').first();
    await page.locator('[data-testid="delivery-row"][data-status="succeeded"]').first().waitFor({ timeout: 30_000 });
    await row.getByText('HTTP 500 at').waitFor();
    await row.getByText('HTTP 200 at').waitFor();
    const [first] = await receiver.requests(url);
    expect(verifySignature(secret, first!.headers['branchify-signature']!, first!.body)).toBe(true);
    // Each attempt shows the Standard Webhooks headers the receiver got.
    const shown = await row.getByTestId('attempt-headers').first().innerText();
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(shown).toContain(`${name}\n${first!.headers[name]}`);
    await shot(page, '244-webhook-delivery-log');

    await row.getByRole('button', { name: /^Resend webhook\.test/ }).click();
    await expectAlert(page, MESSAGES.webhookResent);
    await receiver.waitFor(url, 3);
    await row.locator('[data-testid="delivery-attempts"] li').nth(2).waitFor({ timeout: 30_000 });

    await page.getByRole('menuitem', { name: 'Webhooks' }).click();
    await waitForPath(page, '/admin/webhooks');
    await page.getByRole('cell', { name: url }).waitFor();
    await shot(page, '245-webhooks-list');
  });
});
