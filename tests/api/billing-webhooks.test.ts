// @serial: changes Stripe keys, paused Stripe webhooks for the whole install (tests/harness/groups.js)
import crypto from 'node:crypto';
import request from 'supertest';
import { baseUrl } from './support/http';
import { CARDS, configureStripe, control, createPlan, currentSubscription, eventually, STRIPE_TEST_KEYS } from './support/stripe';
import { verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();
let monthly: { id: number };

beforeAll(async () => {
  await configureStripe(suite.admin);
  monthly = await createPlan(suite.admin, { price: '15.00', payment_schedule: 'monthly' });
});
afterAll(async () => {
  await control('webhooks/resume', {});
});

interface Delivery {
  event: string;
  type: string;
  status: number;
}

const subscribe = async () => {
  const user = await verifiedUser();
  const res = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.visa }, user.token);
  expect(res.status).toBe(201);
  const row = await suite.db('branchify_subscriptions').where({ id: res.body.data.id }).first();
  return { user, id: res.body.data.id as number, stripeId: row.stripe_subscription_id as string };
};

const sign = (payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) =>
  `t=${timestamp},v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;

const post = (payload: string, signature: string) =>
  request(baseUrl()).post('/api/stripe/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', signature).send(payload);

/** A fresh subscriber's paid invoice, its payment intent, and the Stripe test server's API as the dashboard would call it. */
const paidInvoice = async () => {
  const { user, id } = await subscribe();
  const invoices = await eventually(
    async () => (await user.http.get(`/api/users/subscriptions/${id}/invoices`, user.token)).body.data as Array<{ invoice_id: string; status: string }>,
    (list) => list.some((i) => i.status === 'paid'),
  );
  const paid = invoices.find((i) => i.status === 'paid')!;
  const stripeApi = (path: string, init: RequestInit = {}) =>
    fetch(`${process.env.BRANCHIFY_STRIPE_FAKE_URL}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${STRIPE_TEST_KEYS.secret}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(init.headers as Record<string, string>),
      },
    }).then((r) => r.json() as Promise<Record<string, any>>); // eslint-disable-line @typescript-eslint/no-explicit-any -- a Stripe object as the test server answers it
  const payments = await stripeApi(`/v1/invoice_payments?invoice=${paid.invoice_id}`);
  const paymentIntent = payments.data[0].payment.payment_intent as string;
  return { user, id, paid, paymentIntent, stripeApi };
};

describe('POST /api/stripe/webhook', () => {
  it('refuses a wrong signature, a stale one and none, storing nothing', async () => {
    const event = JSON.stringify({
      id: `evt_forged_${Date.now()}`,
      object: 'event',
      type: 'invoice.paid',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'in_x' } },
    });
    for (const res of [
      await post(event, sign(event, 'whsec_wrong')),
      await post(event, sign(event, STRIPE_TEST_KEYS.webhook_secret, Math.floor(Date.now() / 1000) - 600)),
      await request(baseUrl()).post('/api/stripe/webhook').set('Content-Type', 'application/json').send(event),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: 'Invalid Stripe signature.' });
    }
    expect(await suite.db('branchify_stripe_events').where('event_id', 'like', 'evt_forged_%')).toEqual([]);
  });

  it('rejects deliveries the test server signs wrongly or too late', async () => {
    const { stripeId } = await subscribe();
    const events = await eventually(
      () => control<Delivery[]>('deliveries'),
      (d) => d.some((x) => x.status === 200),
    );
    const one = events.find((d) => d.status === 200)!;
    const wrong = await control<{ deliveries: Delivery[] }>('webhooks/deliver', { events: [one.event], signature: 'wrong-secret' });
    const stale = await control<{ deliveries: Delivery[] }>('webhooks/deliver', { events: [one.event], signature: 'stale' });
    expect(JSON.stringify(wrong)).toMatch(/400/);
    expect(JSON.stringify(stale)).toMatch(/400/);
    expect(stripeId).toMatch(/^sub_/);
  });

  it('applies one event exactly once under parallel duplicate deliveries', async () => {
    await subscribe();
    const deliveries = await eventually(
      () => control<Delivery[]>('deliveries'),
      (d) => d.some((x) => x.type === 'invoice.paid' && x.status === 200),
    );
    const paid = [...deliveries].reverse().find((d) => d.type === 'invoice.paid')!;
    await control('webhooks/redeliver', { event: paid.event, times: 10, parallel: true });
    const rows = await suite.db('branchify_stripe_events').where({ event_id: paid.event });
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('processed');
  });

  it('never moves a subscription backwards when events arrive out of order', async () => {
    await control('webhooks/pause', {});
    const { user, stripeId } = await subscribe();
    // While webhooks are held back, the subscription is cancelled at period end…
    const sub = await currentSubscription(user);
    await user.http.post(`/api/users/subscriptions/${sub.id}/cancel`, { period: 'cancel_at_period_end' }, user.token);
    const pending = await control<Delivery[]>('deliveries');
    void pending;
    const events = (await (
      await fetch(`${process.env.BRANCHIFY_STRIPE_FAKE_URL}/v1/events?limit=100`, { headers: { Authorization: `Bearer ${STRIPE_TEST_KEYS.secret}` } })
    ).json()) as {
      data: Array<{ id: string; type: string; data: { object: { id: string } } }>;
    };
    const mine = events.data.filter((e) => e.data.object.id === stripeId && e.type.startsWith('customer.subscription'));
    // …then the old "created" event arrives after the newer "updated" one.
    await control('webhooks/deliver', { events: mine.map((e) => e.id) });
    await control('webhooks/resume', {});
    const after = await currentSubscription(user);
    expect(after.status).toBe('canceled');
    expect(new Date(after.canceled_at).getTime()).toBeGreaterThan(Date.now());
    expect(await suite.db('branchify_subscriptions').where({ stripe_subscription_id: stripeId })).toHaveLength(1);
  });

  it('marks a failed renewal and recovers on the next paid one', async () => {
    const { user, stripeId } = await subscribe();
    await control('advance', { subscription: stripeId, outcome: 'declined' });
    const failed = await eventually(
      () => currentSubscription(user),
      (s) => s.status === 'failed_renewal',
    );
    expect(failed.status).toBe('failed_renewal');
    const me = await user.http.get('/api/auth/user', user.token);
    expect(me.body.data.subscription.status).toBe('failed_renewal');

    await control('advance', { subscription: stripeId, outcome: 'paid' });
    const recovered = await eventually(
      () => currentSubscription(user),
      (s) => s.status === 'active',
    );
    expect(recovered.status).toBe('active');
  });

  it('applies a partial refund made in the Stripe dashboard: the invoice stays paid, with the refunded amount', async () => {
    const { user, paid, paymentIntent, stripeApi } = await paidInvoice();
    const refund = await stripeApi('/v1/refunds', {
      method: 'POST',
      body: `payment_intent=${paymentIntent}&amount=300`,
      headers: { 'Idempotency-Key': `dashboard-partial-refund:${paid.invoice_id}` },
    });
    expect(refund.object).toBe('refund');
    type Listed = { invoice_id: string; status: string; amount_refunded: number };
    const after = await eventually(
      async () => (await user.http.get('/api/users/invoices', user.token)).body.data as Listed[],
      (list) => list.find((i) => i.invoice_id === paid.invoice_id)?.amount_refunded === 3,
    );
    expect(after.find((i) => i.invoice_id === paid.invoice_id)).toMatchObject({ status: 'paid', amount_refunded: 3 });
  });

  it('applies a refund made in the Stripe dashboard to our invoice (charge.refunded)', async () => {
    const { user, id, paid, paymentIntent, stripeApi } = await paidInvoice();
    // As the dashboard would (with its own idempotency key: the reliability suite checks every
    // mutation the test server saw carries one).
    const refund = await stripeApi('/v1/refunds', {
      method: 'POST',
      body: `payment_intent=${paymentIntent}`,
      headers: { 'Idempotency-Key': `dashboard-refund:${paid.invoice_id}` },
    });
    expect(refund.object).toBe('refund');
    const after = await eventually(
      async () => (await user.http.get(`/api/users/subscriptions/${id}/invoices`, user.token)).body.data as Array<{ invoice_id: string; status: string }>,
      (list) => list.find((i) => i.invoice_id === paid.invoice_id)?.status === 'refunded',
    );
    expect(after.find((i) => i.invoice_id === paid.invoice_id)?.status).toBe('refunded');
  });

  it('creates no second row when webhooks race the API call', async () => {
    const { stripeId } = await subscribe();
    const deliveries = await eventually(
      () => control<Delivery[]>('deliveries'),
      (d) => d.some((x) => x.type === 'customer.subscription.created'),
    );
    const created = [...deliveries].reverse().find((d) => d.type === 'customer.subscription.created')!;
    await control('webhooks/redeliver', { event: created.event, times: 5, parallel: true });
    expect(await suite.db('branchify_subscriptions').where({ stripe_subscription_id: stripeId })).toHaveLength(1);
  });
});
