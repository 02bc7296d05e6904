// @serial: changes Stripe keys; Stripe test server failures and hangs for the whole install (tests/harness/groups.js)
import { CARDS, configureStripe, control, createPlan, currentSubscription } from './support/stripe';
import { verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();
let monthly: { id: number };
let oneTime: { id: number };

beforeAll(async () => {
  await configureStripe(suite.admin);
  monthly = await createPlan(suite.admin, { price: '12.00', payment_schedule: 'monthly' });
  oneTime = await createPlan(suite.admin, { price: '40.00', payment_schedule: 'one-time' });
});

const UNAVAILABLE = 'The payment provider did not respond. Nothing was charged; please try again in a moment.';

describe('when Stripe fails', () => {
  it('answers 502 on repeated 500s, writes nothing, and the retry succeeds', async () => {
    const user = await verifiedUser();
    await user.http.put('/api/payment-method', { payment_method_id: CARDS.visa }, user.token);
    await control('fail', { status: 500, count: 5, path: '^/v1/subscriptions$' });
    const res = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id }, user.token);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ success: false, message: UNAVAILABLE });
    expect(await suite.db('branchify_subscriptions').where({ user_id: user.id })).toEqual([]);
    expect(await currentSubscription(user)).toBeNull();
    await control('fail', { status: 500, count: 0 });

    const retry = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id }, user.token);
    expect(retry.status).toBe(201);
    expect(retry.body.data.status).toBe('active');
    expect(await suite.db('branchify_subscriptions').where({ user_id: user.id })).toHaveLength(1);
  });

  it('answers 502 when Stripe hangs past the timeout, and the retry succeeds once', async () => {
    const user = await verifiedUser();
    await user.http.put('/api/payment-method', { payment_method_id: CARDS.visa }, user.token);
    await control('hang', { count: 5, path: '^/v1/invoices' });
    const res = await user.http.post('/api/users/subscriptions', { plan_id: oneTime.id }, user.token);
    expect(res.status).toBe(502);
    expect(await suite.db('branchify_subscriptions').where({ user_id: user.id })).toEqual([]);
    await control('hang', { count: 0 });

    const retry = await user.http.post('/api/users/subscriptions', { plan_id: oneTime.id }, user.token);
    expect(retry.status).toBe(201);
    const invoices = await user.http.get(`/api/users/subscriptions/${retry.body.data.id}/invoices`, user.token);
    expect(invoices.body.data.filter((i: { status: string }) => i.status === 'paid')).toHaveLength(1);
  });

  it('sends an idempotency key with every mutating call', async () => {
    // Only this test's own calls: a subscription's life from card to refund.
    await control('requests/clear', {});
    const user = await verifiedUser();
    expect((await user.http.put('/api/payment-method', { payment_method_id: CARDS.visa }, user.token)).status).toBe(200);
    const sub = (await user.http.post('/api/users/subscriptions', { plan_id: monthly.id }, user.token)).body.data;
    expect((await user.http.post(`/api/users/subscriptions/${sub.id}/cancel`, { period: 'cancel_at_period_end' }, user.token)).status).toBe(200);
    expect((await user.http.post(`/api/users/subscriptions/${sub.id}/resume`, {}, user.token)).status).toBe(200);
    const [invoice] = (await user.http.get(`/api/users/subscriptions/${sub.id}/invoices`, user.token)).body.data;
    const refund = await suite.admin.http.post(`/api/admin/subscriptions/invoices/${sub.id}/refund`, { invoice_id: invoice.invoice_id }, suite.admin.token);
    expect(refund.status).toBe(200);

    const requests =
      await control<Array<{ method: string; path: string; publishable?: boolean; idempotencyKey?: string | null; idempotency_key?: string | null }>>(
        'requests',
      );
    const mutations = requests.filter((r) => (r.method === 'POST' || r.method === 'DELETE') && !r.publishable);
    expect(mutations.length).toBeGreaterThanOrEqual(5);
    // Ours, not the SDK's automatic retry keys: derived from the operation, so a user's retry
    // replays; and this install's, so another install on the same Stripe account never meets them.
    const install = (await suite.db('branchify_settings').where({ name: 'install-id' }).first()).value as string;
    for (const r of mutations)
      expect({ call: `${r.method} ${r.path}`, key: String(r.idempotencyKey ?? r.idempotency_key ?? '') }).toEqual({
        call: `${r.method} ${r.path}`,
        key: expect.stringMatching(new RegExp(`^${install}:[a-z-]+:`)),
      });
  });
});
