// @serial: changes Stripe keys, the mailer, paused Stripe webhooks for the whole install (tests/harness/groups.js)
import { configureMailer, removeMailer, sink, verifiedUserByMail, type SinkMessage } from './support/mail';
import { CARDS, configureStripe, control, createPlan, currentSubscription, eventually, fakeUrl, STRIPE_TEST_KEYS } from './support/stripe';
import { type Session } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();
let monthly: { id: number; name: string };
let yearly: { id: number; name: string };
let oneTime: { id: number; name: string };
let free: { id: number; name: string };

beforeAll(async () => {
  await configureStripe(suite.admin);
  await configureMailer(suite.admin);
  monthly = await createPlan(suite.admin, { name: `Mail monthly ${Date.now()}`, price: '11.00', payment_schedule: 'monthly' });
  yearly = await createPlan(suite.admin, { name: `Mail yearly ${Date.now()}`, price: '110.00', payment_schedule: 'yearly' });
  oneTime = await createPlan(suite.admin, { name: `Mail lifetime ${Date.now()}`, price: '35.00', payment_schedule: 'one-time' });
  free = await createPlan(suite.admin, { name: `Mail free ${Date.now()}`, price: '0', payment_schedule: 'free' });
});
afterAll(async () => {
  await control('webhooks/resume', {});
  await removeMailer();
});

type StripeObject = Record<string, unknown> & { id: string; status?: string };
interface StripeEvent {
  id: string;
  type: string;
  data: { object: { id: string; customer?: string } };
}
const stripeGet = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${fakeUrl()}${path}`, { headers: { authorization: `Bearer ${STRIPE_TEST_KEYS.secret}` } });
  return (await res.json()) as T;
};
const customerOf = async (user: Session): Promise<string> => (await suite.db('up_users').where({ id: user.id }).first()).stripe_customer_id;
/** Every event Stripe emitted for the user's customer (newest first). */
const eventsOf = async (user: Session): Promise<StripeEvent[]> => {
  const customer = await customerOf(user);
  const { data } = await stripeGet<{ data: StripeEvent[] }>('/v1/events?limit=100');
  return data.filter((e) => e.data.object.customer === customer || e.data.object.id === customer);
};

const isActivation = (m: SinkMessage) => /subscription is active$/.test(m.subject);

/** Lets every webhook delivery and every queued mail finish, so the mails counted next are all there will be. */
const settle = async () => {
  await control('webhooks/resume', {});
  for (let i = 0; i < 150; i += 1) {
    const pending = await suite.db('branchify_mail_outbox').whereIn('status', ['queued', 'sending']).count({ n: '*' }).first();
    if (Number(pending?.n ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** The activation mails the user received once everything settled, by plan name in the subject. */
const activationMails = async (user: Session): Promise<string[]> => {
  await settle();
  return (await sink.to(user.email)).filter(isActivation).map((m) => m.subject);
};
const subjectFor = (plan: { name: string }) => `Your ${plan.name} subscription is active`;

/** Delivers every event of the user's customer again, five times at once each (Stripe's retries). */
const redeliverAll = async (user: Session) => {
  for (const event of await eventsOf(user)) await control('webhooks/redeliver', { event: event.id, times: 5, parallel: true });
};

const subscribe = (user: Session, body: Record<string, unknown>) => user.http.post('/api/users/subscriptions', body, user.token);
const openInvoiceOf = async (user: Session, subscriptionId: number) => {
  const invoices = await eventually(
    async () =>
      (await user.http.get(`/api/users/subscriptions/${subscriptionId}/invoices`, user.token)).body.data as Array<{ invoice_id: string; status: string }>,
    (list) => list.some((i) => i.status === 'open'),
  );
  return invoices.find((i) => i.status === 'open')!;
};

describe('the new_subscription mail goes out once each time a subscription becomes active', () => {
  it('a paid subscribe that is active at once; webhooks seeing the same activation and their retries send nothing more', async () => {
    const user = await verifiedUserByMail();
    await control('webhooks/pause', {});
    const res = await subscribe(user, { plan_id: monthly.id, payment_method_id: CARDS.visa });
    expect(res.status).toBe(201);
    const [mail] = await sink.waitFor(user.email, isActivation);
    expect(mail!.subject).toBe(subjectFor(monthly));
    expect(mail!.html).toContain(monthly.name);

    // The held-back webhooks arrive after the API answered, each observing the activation again.
    await control('webhooks/resume', {});
    await redeliverAll(user);
    expect(await activationMails(user)).toEqual([subjectFor(monthly)]);
  });

  it('a free plan the user picks', async () => {
    const user = await verifiedUserByMail();
    expect((await subscribe(user, { plan_id: free.id })).status).toBe(201);
    expect(await activationMails(user)).toEqual([subjectFor(free)]);
  });

  it('a one-time purchase, whose invoice webhooks are replayed', async () => {
    const user = await verifiedUserByMail();
    expect((await subscribe(user, { plan_id: oneTime.id, payment_method_id: CARDS.visa })).status).toBe(201);
    await redeliverAll(user);
    expect(await activationMails(user)).toEqual([subjectFor(oneTime)]);
  });

  it('after 3-D Secure: none while pending, one when the bank confirms, even with the events delivered at once and again', async () => {
    const user = await verifiedUserByMail();
    const res = await subscribe(user, { plan_id: monthly.id, payment_method_id: CARDS.threeDSecure });
    expect(res.status).toBe(202);
    expect(await activationMails(user)).toEqual([]);

    await control('webhooks/pause', {});
    await control('complete-3ds', { payment_intent: res.body.data.payment_intent_id });
    // Different events (invoice.paid, invoice.payment_succeeded, customer.subscription.updated…)
    // reach the app side by side, each seeing the same activation.
    const events = await eventsOf(user);
    await Promise.all(events.map((e) => control('webhooks/deliver', { events: [e.id] })));
    await control('webhooks/resume', {});
    await redeliverAll(user);
    expect((await currentSubscription(user)).status).toBe('active');
    expect(await activationMails(user)).toEqual([subjectFor(monthly)]);
  });

  it('after paying an outstanding invoice (none for the declined attempt)', async () => {
    const user = await verifiedUserByMail();
    expect((await subscribe(user, { plan_id: monthly.id, payment_method_id: CARDS.declined })).status).toBe(402);
    const sub = await currentSubscription(user);
    expect(sub.status).toBe('payment_required');
    expect(await activationMails(user)).toEqual([]);

    await user.http.put('/api/payment-method', { payment_method_id: CARDS.visa }, user.token);
    const open = await openInvoiceOf(user, sub.id);
    const paid = await user.http.post(`/api/users/subscriptions/${sub.id}/invoices/pay`, { invoice_id: open.invoice_id }, user.token);
    expect(paid.status).toBe(200);
    await redeliverAll(user);
    expect(await activationMails(user)).toEqual([subjectFor(monthly)]);
  });

  it('after a plan change, naming the new plan', async () => {
    const user = await verifiedUserByMail();
    const sub = (await subscribe(user, { plan_id: monthly.id, payment_method_id: CARDS.visa })).body.data;
    const changed = await user.http.post(`/api/users/subscriptions/${sub.id}/change`, { plan_id: yearly.id }, user.token);
    expect(changed.body.data).toMatchObject({ plan_id: yearly.id, status: 'active' });
    const toFree = await user.http.post(`/api/users/subscriptions/${sub.id}/change`, { plan_id: free.id }, user.token);
    expect(toFree.body.data).toMatchObject({ plan_id: free.id, status: 'active' });
    await redeliverAll(user);
    expect(await activationMails(user)).toEqual([subjectFor(monthly), subjectFor(yearly), subjectFor(free)]);
  });

  it('after a resume, both from the grace period and after an immediate cancellation', async () => {
    const user = await verifiedUserByMail();
    const sub = (await subscribe(user, { plan_id: monthly.id, payment_method_id: CARDS.visa })).body.data;
    await user.http.post(`/api/users/subscriptions/${sub.id}/cancel`, { period: 'cancel_at_period_end' }, user.token);
    expect((await user.http.post(`/api/users/subscriptions/${sub.id}/resume`, {}, user.token)).body.data.status).toBe('active');
    expect(await activationMails(user)).toHaveLength(2);

    await user.http.post(`/api/users/subscriptions/${sub.id}/cancel`, { period: 'immediately' }, user.token);
    expect((await user.http.post(`/api/users/subscriptions/${sub.id}/resume`, {}, user.token)).status).toBe(200);
    await redeliverAll(user);
    expect(await activationMails(user)).toEqual([subjectFor(monthly), subjectFor(monthly), subjectFor(monthly)]);
  });

  it('not for a renewal, even one paid after it failed', async () => {
    const user = await verifiedUserByMail();
    const sub = (await subscribe(user, { plan_id: monthly.id, payment_method_id: CARDS.visa })).body.data;
    const stripeId = (await suite.db('branchify_subscriptions').where({ id: sub.id }).first()).stripe_subscription_id;
    await control('advance', { subscription: stripeId, outcome: 'declined' });
    await eventually(
      () => currentSubscription(user),
      (s) => s.status === 'failed_renewal',
    );
    await control('advance', { subscription: stripeId, outcome: 'paid' });
    await eventually(
      () => currentSubscription(user),
      (s) => s.status === 'active',
    );
    expect(await activationMails(user)).toEqual([subjectFor(monthly)]);
  });
});

describe('what an admin starts', () => {
  const addPlan = (userId: number, planId: number) =>
    suite.admin.http.post('/api/admin/subscriptions', { user_id: userId, plan_id: planId }, suite.admin.token);

  it('a free plan: active at once, with the mail', async () => {
    const user = await verifiedUserByMail();
    const res = await addPlan(user.id, free.id);
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('active');
    expect(await activationMails(user)).toEqual([subjectFor(free)]);
  });

  it('a paid plan never charges the saved card: payment_required with an open invoice at Stripe; paying it activates and mails once', async () => {
    const user = await verifiedUserByMail();
    await user.http.put('/api/payment-method', { payment_method_id: CARDS.visa }, user.token);
    const res = await addPlan(user.id, monthly.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Subscription plan added successfully' });
    expect(res.body.data.status).toBe('payment_required');

    const customer = await customerOf(user);
    expect((await stripeGet<{ data: StripeObject[] }>(`/v1/charges?customer=${customer}`)).data).toEqual([]);
    const atStripe = (await stripeGet<{ data: StripeObject[] }>(`/v1/invoices?customer=${customer}`)).data;
    expect(atStripe.map((i) => [i.status, i.amount_paid, i.amount_due])).toEqual([['open', 0, 1100]]);
    expect(await activationMails(user)).toEqual([]);

    const open = await openInvoiceOf(user, res.body.data.id);
    expect(open.invoice_id).toBe(atStripe[0]!.id);
    const paid = await user.http.post(`/api/users/subscriptions/${res.body.data.id}/invoices/pay`, { invoice_id: open.invoice_id }, user.token);
    expect(paid.body).toMatchObject({ success: true, message: 'Invoice paid successfully. Your subscription is now active.' });
    expect(paid.body.data.status).toBe('active');
    expect((await stripeGet<{ data: StripeObject[] }>(`/v1/invoices?customer=${customer}`)).data.map((i) => i.status)).toEqual(['paid']);
    await redeliverAll(user);
    expect(await activationMails(user)).toEqual([subjectFor(monthly)]);
  });

  it('a one-time plan the same way', async () => {
    const user = await verifiedUserByMail();
    await user.http.put('/api/payment-method', { payment_method_id: CARDS.visa }, user.token);
    const res = await addPlan(user.id, oneTime.id);
    expect(res.body.data.status).toBe('payment_required');
    expect((await stripeGet<{ data: StripeObject[] }>(`/v1/charges?customer=${await customerOf(user)}`)).data).toEqual([]);
    const open = await openInvoiceOf(user, res.body.data.id);
    const paid = await user.http.post(`/api/users/subscriptions/${res.body.data.id}/invoices/pay`, { invoice_id: open.invoice_id }, user.token);
    expect(paid.body.data.status).toBe('active');
    await redeliverAll(user);
    expect(await activationMails(user)).toEqual([subjectFor(oneTime)]);
  });

  it('a change to a paid plan leaves the difference for the user to pay; a change to free is active at once', async () => {
    const user = await verifiedUserByMail();
    const sub = (await subscribe(user, { plan_id: monthly.id, payment_method_id: CARDS.visa })).body.data;
    const customer = await customerOf(user);
    const chargesBefore = (await stripeGet<{ data: StripeObject[] }>(`/v1/charges?customer=${customer}`)).data.length;

    const changed = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/change`, { plan_id: yearly.id }, suite.admin.token);
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ plan_id: yearly.id, status: 'payment_required' });
    expect((await stripeGet<{ data: StripeObject[] }>(`/v1/charges?customer=${customer}`)).data).toHaveLength(chargesBefore);
    expect(await activationMails(user)).toEqual([subjectFor(monthly)]);

    const open = await openInvoiceOf(user, sub.id);
    const paid = await user.http.post(`/api/users/subscriptions/${sub.id}/invoices/pay`, { invoice_id: open.invoice_id }, user.token);
    expect(paid.body.data).toMatchObject({ plan_id: yearly.id, status: 'active' });
    expect(await activationMails(user)).toEqual([subjectFor(monthly), subjectFor(yearly)]);

    const toFree = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/change`, { plan_id: free.id }, suite.admin.token);
    expect(toFree.body.data).toMatchObject({ plan_id: free.id, status: 'active' });
    const fromFree = await suite.admin.http.post(`/api/admin/subscriptions/${toFree.body.data.id}/change`, { plan_id: monthly.id }, suite.admin.token);
    expect(fromFree.body.data).toMatchObject({ plan_id: monthly.id, status: 'payment_required' });
    expect((await stripeGet<{ data: StripeObject[] }>(`/v1/charges?customer=${customer}`)).data).toHaveLength(chargesBefore + 1);
    await redeliverAll(user);
    expect(await activationMails(user)).toEqual([subjectFor(monthly), subjectFor(yearly), subjectFor(free)]);
  });

  it('a resume by the admin', async () => {
    const user = await verifiedUserByMail();
    const sub = (await addPlan(user.id, free.id)).body.data;
    await suite.admin.http.post(
      `/api/admin/subscriptions/${sub.id}/cancel`,
      { cancellation_note: 'Paused on request', period: 'immediately' },
      suite.admin.token,
    );
    const resumed = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/resume`, {}, suite.admin.token);
    expect(resumed.body.data.status).toBe('active');
    expect(await activationMails(user)).toEqual([subjectFor(free), subjectFor(free)]);
  });
});
