// @serial: changes Stripe keys and plans for the whole install (tests/harness/groups.js)
import { client } from './support/http';
import { CARDS, configureStripe, control, createPlan, currentSubscription, eventually } from './support/stripe';
import { verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();
let monthly: { id: number };
let oneTime: { id: number };
let free: { id: number };

beforeAll(async () => {
  await configureStripe(suite.admin);
  monthly = await createPlan(suite.admin, { price: '19.00', payment_schedule: 'monthly' });
  oneTime = await createPlan(suite.admin, { price: '49.00', payment_schedule: 'one-time' });
  free = await createPlan(suite.admin, { price: '0', payment_schedule: 'free' });
});

describe('plans on Stripe', () => {
  it('mirrors a paid plan to a product and price when saved; a free plan never touches Stripe', async () => {
    const paid = await createPlan(suite.admin, { price: '7.00', payment_schedule: 'yearly' });
    const row = await suite.db('branchify_plans').where({ id: paid.id }).first();
    expect(row.stripe_product_id).toMatch(/^prod_/);
    expect(row.stripe_price_id).toMatch(/^price_/);
    const freeRow = await suite.db('branchify_plans').where({ id: free.id }).first();
    expect(freeRow.stripe_price_id).toBeNull();

    // A new price replaces the old one (Stripe prices are immutable).
    const updated = await suite.admin.http.put(
      `/api/admin/plans/${paid.id}`,
      { name: 'Repriced', price: '8.00', payment_schedule: 'yearly' },
      suite.admin.token,
    );
    expect(updated.status).toBe(200);
    const after = await suite.db('branchify_plans').where({ id: paid.id }).first();
    expect(after.stripe_price_id).toMatch(/^price_/);
    expect(after.stripe_price_id).not.toBe(row.stripe_price_id);
    expect(after.stripe_product_id).toBe(row.stripe_product_id);
  });
});

describe('subscribing (user)', () => {
  it("starts a free plan without Stripe: 'Subscription created successfully'", async () => {
    const user = await verifiedUser();
    const before = (await control<Array<unknown>>('requests')).length;
    const res = await user.http.post('/api/users/subscriptions', { plan_id: free.id }, user.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Subscription created successfully' });
    expect(res.body.data).toMatchObject({ status: 'active', plan_id: free.id, managed_by: 'platform', canceled_at: null });
    expect(res.body.data.plan.price_display).toBe('Free');
    expect((await control<Array<unknown>>('requests')).length).toBe(before);
    const me = await user.http.get('/api/auth/user', user.token);
    expect(me.body.data.subscription).toMatchObject({ id: res.body.data.id, status: 'active' });
    expect(me.body.data.subscription_id).toBe(res.body.data.id);
  });

  it('asks for a card before a paid plan', async () => {
    const user = await verifiedUser();
    const res = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id }, user.token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ payment_method_id: ['Please add a payment method first.'] });
    expect(await currentSubscription(user)).toBeNull();
  });

  it('charges a good card and becomes active with a paid invoice', async () => {
    const user = await verifiedUser();
    const res = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.visa }, user.token);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'active', plan_id: monthly.id });
    expect(res.body.data.renews_at).not.toBeNull();
    const invoices = await user.http.get(`/api/users/subscriptions/${res.body.data.id}/invoices`, user.token);
    expect(invoices.body.data).toEqual([expect.objectContaining({ status: 'paid', amount: 19, currency: 'usd' })]);
    const rows = await suite.db('branchify_subscriptions').where({ user_id: user.id });
    expect(rows).toHaveLength(1);
    expect(rows[0].stripe_subscription_id).toMatch(/^sub_/);
    const card = await user.http.get('/api/payment-method', user.token);
    expect(card.body.data).toMatchObject({ id: expect.any(String), last4: '4242' });
  });

  it('answers a declined card with 402 and leaves an invoice to pay with a new card', async () => {
    const user = await verifiedUser();
    const res = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.declined }, user.token);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ success: false, message: 'Your payment was declined. Please add a new payment method.' });

    const sub = await currentSubscription(user);
    expect(sub.status).toBe('payment_required');
    const me = await user.http.get('/api/auth/user', user.token);
    expect(me.body.data.subscription.status).toBe('payment_required');
    const invoices = (await user.http.get(`/api/users/subscriptions/${sub.id}/invoices`, user.token)).body.data;
    const open = invoices.find((i: { status: string }) => i.status === 'open');
    expect(open).toBeDefined();

    const card = await user.http.put('/api/payment-method', { payment_method_id: CARDS.visa }, user.token);
    expect(card.body).toMatchObject({ success: true, message: 'Card added successfully.' });
    const paid = await user.http.post(`/api/users/subscriptions/${sub.id}/invoices/pay`, { invoice_id: open.invoice_id }, user.token);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ success: true, message: 'Invoice paid successfully. Your subscription is now active.' });
    expect(paid.body.data.status).toBe('active');
    expect((await suite.db('branchify_subscriptions').where({ user_id: user.id })).length).toBe(1);
  });

  it('returns what Stripe.js needs for 3-D Secure, and activates once the bank confirms', async () => {
    const user = await verifiedUser();
    const res = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.threeDSecure }, user.token);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      requires_action: true,
      client_secret: expect.stringMatching(/_secret_/),
      payment_intent_id: expect.stringMatching(/^pi_/),
    });
    expect(res.body.data.subscription.status).toBe('pending');
    // No access before payment.
    expect((await currentSubscription(user)).status).toBe('pending');

    await control('complete-3ds', { payment_intent: res.body.data.payment_intent_id });
    const sub = await eventually(
      () => currentSubscription(user),
      (s) => s?.status === 'active',
    );
    expect(sub.status).toBe('active');
  });

  it('sells a one-time plan as a paid invoice', async () => {
    const user = await verifiedUser();
    const res = await user.http.post('/api/users/subscriptions', { plan_id: oneTime.id, payment_method_id: CARDS.visa }, user.token);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'active', plan_id: oneTime.id, renews_at: null });
    const invoices = await user.http.get(`/api/users/subscriptions/${res.body.data.id}/invoices`, user.token);
    expect(invoices.body.data).toEqual([expect.objectContaining({ status: 'paid', amount: 49 })]);
  });

  it('refuses a second subscription, admins, self-managed and unknown plans', async () => {
    const user = await verifiedUser();
    await user.http.post('/api/users/subscriptions', { plan_id: free.id }, user.token);
    const again = await user.http.post('/api/users/subscriptions', { plan_id: free.id }, user.token);
    expect(again.status).toBe(409);

    const adminTry = await suite.admin.http.post('/api/users/subscriptions', { plan_id: free.id }, suite.admin.token);
    expect(adminTry.status).toBe(422);
    expect(adminTry.body.errors).toEqual({ plan_id: ["Admin accounts don't support subscriptions."] });

    const selfManaged = await createPlan(suite.admin, { managed_by: 'self' });
    const other = await verifiedUser();
    const self = await other.http.post('/api/users/subscriptions', { plan_id: selfManaged.id, payment_method_id: CARDS.visa }, other.token);
    expect(self.status).toBe(422);
    expect(self.body.errors.plan_id).toEqual([
      'Self-managed plans cannot be added through this interface. You should use our API to create the subscription for this user.',
    ]);
    const unknown = await other.http.post('/api/users/subscriptions', { plan_id: 999999 }, other.token);
    expect(unknown.status).toBe(422);
    const missing = await other.http.post('/api/users/subscriptions', {}, other.token);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty('plan_id');
  });

  it("never reaches another user's subscription or invoices", async () => {
    const owner = await verifiedUser();
    const res = await owner.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.visa }, owner.token);
    const intruder = await verifiedUser();
    const id = res.body.data.id;
    for (const call of [
      intruder.http.get(`/api/users/subscriptions/${id}/invoices`, intruder.token),
      intruder.http.post(`/api/users/subscriptions/${id}/cancel`, { period: 'immediately' }, intruder.token),
      intruder.http.post(`/api/users/subscriptions/${id}/resume`, {}, intruder.token),
      intruder.http.post(`/api/users/subscriptions/${id}/change`, { plan_id: free.id }, intruder.token),
      intruder.http.post(`/api/users/subscriptions/${id}/invoices/pay`, { invoice_id: 'in_x' }, intruder.token),
    ]) {
      expect((await call).status).toBe(404);
    }
    expect((await currentSubscription(owner)).status).toBe('active');
  });

  it('needs a verified session', async () => {
    expect((await client().get('/api/users/subscriptions')).status).toBe(401);
  });

  it('tells the client whether card payments are set up', async () => {
    const user = await verifiedUser();
    const res = await user.http.get('/api/users/subscriptions/stripe-integration', user.token);
    expect(res.body.data).toEqual({ integrated: true, publishable_key: 'pk_test_branchify_suite', account_id: null });
  });
});
