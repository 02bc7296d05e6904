import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { fakeUrl } from '../../api/support/stripe';

const DOUBLE = path.join(__dirname, 'stripe-js-double.js');
const STRIPE_API = 'https://api.stripe.com';

/**
 * Serves the Stripe.js test double (stripe-js-double.js) in place of https://js.stripe.com/…, and
 * sends what the page asks of https://api.stripe.com to the Stripe test server as it was asked
 * (method, path, query, body, headers), answering with what the test server answered: as if
 * api.stripe.com resolved to it. Page routes win over the app context's "nothing but our origin".
 * Call before the first navigation.
 */
export const routeStripeJs = async (page: Page): Promise<void> => {
  const fake = fakeUrl();
  const script = fs.readFileSync(DOUBLE, 'utf8');
  await page.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript; charset=utf-8', headers: { 'Access-Control-Allow-Origin': '*' }, body: script }),
  );
  await page.route(`${STRIPE_API}/**`, async (route) => {
    const url = new URL(route.request().url());
    try {
      const response = await route.fetch({ url: `${fake}${url.pathname}${url.search}`, maxRedirects: 0 });
      await route.fulfill({ response });
    } catch {
      await route.abort('connectionrefused');
    }
  });
};

/** Types a card into the double's card form (number, expiry, CVC; ZIP when shown). */
export const typeCard = async (page: Page, number: string, { expiry = '12 / 34', cvc = '123', zip = '10001' } = {}): Promise<void> => {
  const form = page.locator('[data-stripe-double=card]');
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiration date').fill(expiry);
  await form.getByLabel('CVC').fill(cvc);
  const postal = form.getByLabel('ZIP');
  if (await postal.count()) await postal.fill(zip);
};
