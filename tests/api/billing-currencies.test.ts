// @serial: changes Stripe keys; reads every request the Stripe test server saw for the whole install (tests/harness/groups.js)
import { CARDS, configureStripe, control, createPlan, eventually, fakeUrl, STRIPE_TEST_KEYS } from './support/stripe';
import { verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

/**
 * Money crosses to Stripe in each currency's minor unit: cents for USD, whole units for JPY
 * (zero-decimal), thousandths for BHD (three-decimal), hundredths of whole krónur for ISK. The
 * Stripe test server records what it was asked for and what it charged.
 */
const suite = useApiSuite();

beforeAll(async () => {
  await configureStripe(suite.admin);
});

interface Logged {
  method: string;
  path: string;
  params: Record<string, unknown> | null;
  status: number | null;
}
interface Charge {
  amount: number;
  amount_refunded: number;
  currency: string;
  customer: string;
  status: string;
}

const requests = () => control<Logged[]>('requests');
const customerOf = async (userId: number): Promise<string> => (await suite.db('up_users').where({ id: userId }).first()).stripe_customer_id;
const chargesOf = async (userId: number) => {
  const customer = await customerOf(userId);
  return (await control<Charge[]>('charges')).filter((c) => c.customer === customer);
};

/** A user subscribed with a good card to the plan; answers their subscription and its first invoice as the app shows them. */
const subscribed = async (planId: number) => {
  const user = await verifiedUser();
  const res = await user.http.post('/api/users/subscriptions', { plan_id: planId, payment_method_id: CARDS.visa }, user.token);
  expect(res.status).toBe(201);
  const invoices = await user.http.get(`/api/users/subscriptions/${res.body.data.id}/invoices`, user.token);
  return { user, sub: res.body.data as { id: number; plan: { price: string; price_display: string } }, invoice: invoices.body.data[0] };
};

/** The price the app asked Stripe to make for a plan (the request's own fields), and the price Stripe holds for it. */
const priceAskedFor = async (planId: number) => {
  const install = await suite
    .db('branchify_settings')
    .where({ name: 'install-id' })
    .first()
    .then(
      (r: { value: string } | undefined) => r?.value,
      () => undefined,
    );
  const asked = (await requests())
    .filter((r) => r.method === 'POST' && r.path === '/v1/prices' && r.status === 200)
    .map((r) => r.params as { unit_amount: string; currency: string; metadata: { branchify_plan_id: string; branchify_install: string } })
    // This install's plan (other suites start installs of their own on the same Stripe).
    .filter((p) => p.metadata.branchify_plan_id === String(planId) && (!install || p.metadata.branchify_install === install));
  const stored = (await suite.db('branchify_plans').where({ id: planId }).first()).stripe_price_id as string;
  const res = await fetch(`${fakeUrl()}/v1/prices/${stored}`, { headers: { authorization: `Bearer ${STRIPE_TEST_KEYS.secret}` } });
  return {
    asked: asked.map((p) => ({ unit_amount: Number(p.unit_amount), currency: p.currency })),
    price: (await res.json()) as { unit_amount: number; currency: string },
  };
};

describe.each([
  // currency, price typed, price stored, shown, Stripe's minor units
  ['jpy', '1000', '1000', '¥1,000/month', 1000],
  ['krw', '15000.00', '15000', '₩15,000/month', 15000],
  ['bhd', '12.5', '12.500', 'BHD\u00a012.500/month', 12500],
  ['kwd', '3.25', '3.250', 'KWD\u00a03.250/month', 3250],
  ['isk', '500', '500', 'ISK\u00a0500/month', 50000],
  ['huf', '1500.50', '1500.50', 'HUF\u00a01,500.50/month', 150050],
  ['usd', '19.99', '19.99', '$19.99/month', 1999],
])('a %s plan', (currency, typed, stored, shown, minor) => {
  it(`is shown as ${shown}, mirrored and charged at Stripe as ${minor}, and invoiced as ${stored}`, async () => {
    const plan = await createPlan(suite.admin, { price: typed, currency, payment_schedule: 'monthly' });
    // What Stripe is asked to charge, then what it charged.
    const { asked, price } = await priceAskedFor(plan.id);
    expect(asked).toEqual([{ unit_amount: minor, currency }]);
    expect(price).toMatchObject({ unit_amount: minor, currency });
    const { user, sub, invoice } = await subscribed(plan.id);
    const charges = await chargesOf(user.id);
    expect(charges.map((c) => [c.amount, c.currency, c.status])).toEqual([[minor, currency, 'succeeded']]);

    // What the app shows: the same amount.
    expect(plan).toMatchObject({ price: stored, price_display: shown });
    expect(sub.plan).toMatchObject({ price: stored, price_display: shown });
    expect(invoice).toMatchObject({ amount: Number(stored), currency, status: 'paid' });
    const row = await suite.db('branchify_invoices').where({ user_id: user.id }).first();
    expect(Number(row.amount)).toBe(Number(stored));
  });
});

describe('plan prices', () => {
  it.each([
    ['jpy', '1000.5', 'The price field must be a whole number of JPY.'],
    ['isk', '500.5', 'The price field must be a whole number of ISK.'],
    ['ugx', '2000.10', 'The price field must be a whole number of UGX.'],
    // Stripe charges three-decimal currencies in steps of ten thousandths.
    ['bhd', '12.345', 'The price field can have at most 2 decimal places in BHD.'],
    ['usd', '19.999', 'The price field can have at most 2 decimal places in USD.'],
    ['eur', '19.9999', 'The price field must be an amount such as 19 or 19.99.'],
  ])('refuses %s %s: more decimals than the currency is charged in', async (currency, price, message) => {
    const res = await suite.admin.http.post(
      '/api/admin/plans',
      { name: `Decimals ${currency}`, price, currency, payment_schedule: 'monthly', managed_by: 'platform' },
      suite.admin.token,
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ price: [message] });
  });

  it('keeps trailing zeros out of the count: 12.340 BHD and 1000.000 JPY are accepted', async () => {
    expect(await createPlan(suite.admin, { price: '12.340', currency: 'bhd' })).toMatchObject({ price: '12.340', price_display: 'BHD\u00a012.340/month' });
    expect(await createPlan(suite.admin, { price: '1000.000', currency: 'jpy' })).toMatchObject({ price: '1000', price_display: '¥1,000/month' });
  });

  it("replaces a Stripe price that charges another amount than the plan's (one made before amounts were scaled per currency)", async () => {
    const plan = await createPlan(suite.admin, { price: '1000', currency: 'jpy' });
    // What the old code made: ¥1,000 multiplied by 100.
    const product = (await suite.db('branchify_plans').where({ id: plan.id }).first()).stripe_product_id;
    const wrong = await fetch(`${fakeUrl()}/v1/prices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${STRIPE_TEST_KEYS.secret}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ product, unit_amount: '100000', currency: 'jpy', 'recurring[interval]': 'month' }).toString(),
    });
    const wrongPrice = ((await wrong.json()) as { id: string }).id;
    await suite.db('branchify_plans').where({ id: plan.id }).update({ stripe_price_id: wrongPrice });

    const { user } = await subscribed(plan.id);
    expect((await chargesOf(user.id)).map((c) => c.amount)).toEqual([1000]);
    const row = await suite.db('branchify_plans').where({ id: plan.id }).first();
    expect(row.stripe_price_id).not.toBe(wrongPrice);
  });
});

describe('refunds in the invoice currency', () => {
  const refund = (subId: number, body: object) => suite.admin.http.post(`/api/admin/subscriptions/invoices/${subId}/refund`, body, suite.admin.token);
  const refundsAsked = async () => (await requests()).filter((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.status === 200);

  it.each([
    ['jpy', '1000', 300, 300, 'The refund amount must be a whole number of JPY.', 300.5],
    ['bhd', '12.5', 2.25, 2250, 'The refund amount can have at most 2 decimal places in BHD.', 2.255],
    ['usd', '20', 5.5, 550, 'The refund amount can have at most 2 decimal places in USD.', 5.555],
  ])('refunds part of a %s %s invoice in its minor units', async (currency, price, amount, minor, decimalsMessage, tooPrecise) => {
    const plan = await createPlan(suite.admin, { price, currency, payment_schedule: 'one-time' });
    const { user, sub, invoice } = await subscribed(plan.id);

    const refused = await refund(sub.id, { invoice_id: invoice.invoice_id, amount: tooPrecise });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ refund_amount: [decimalsMessage] });
    const tooMuch = await refund(sub.id, { invoice_id: invoice.invoice_id, amount: Number(price) + (currency === 'jpy' ? 1 : 0.01) });
    expect(tooMuch.body.errors).toEqual({ refund_amount: ['Refund amount cannot exceed the invoice amount.'] });

    const before = (await refundsAsked()).length;
    const res = await refund(sub.id, { invoice_id: invoice.invoice_id, amount });
    expect(res.status).toBe(200);
    // Part of it: still paid, with the refunded amount.
    expect(res.body.data).toMatchObject({ status: 'paid', amount_refunded: amount, currency });
    const asked = (await refundsAsked()).slice(before);
    expect(asked.map((r) => r.params?.amount)).toEqual([String(minor)]);
    expect((await chargesOf(user.id)).map((c) => [c.amount_refunded, c.currency])).toEqual([[minor, currency]]);

    // Stripe's charge.refunded webhook writes the same amount back.
    const customer = await customerOf(user.id);
    const events = await control<Array<{ id: string; type: string; data: { object: { customer?: string } } }>>('events');
    const refunded = events.find((e) => e.type === 'charge.refunded' && e.data.object.customer === customer)!;
    await eventually(
      () => control<Array<{ event: string; status: number }>>('deliveries'),
      (deliveries) => deliveries.some((d) => d.event === refunded.id && d.status === 200),
    );
    const row = await suite.db('branchify_invoices').where({ id: invoice.id }).first();
    expect(Number(row.amount_refunded)).toBe(amount);
  });
});
