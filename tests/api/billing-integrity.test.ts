// @serial: changes Stripe keys for the whole install (tests/harness/groups.js)
import { CARDS, configureStripe, createPlan, currentSubscription, fakeUrl, STRIPE_TEST_KEYS } from './support/stripe';
import { verifiedUser, type Session } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();
let monthly: { id: number };
let oneTime: { id: number };
let free: { id: number };
let otherFree: { id: number };

beforeAll(async () => {
  await configureStripe(suite.admin);
  monthly = await createPlan(suite.admin, { price: '12.00', payment_schedule: 'monthly' });
  oneTime = await createPlan(suite.admin, { price: '40.00', payment_schedule: 'one-time' });
  free = await createPlan(suite.admin, { price: '0', payment_schedule: 'free' });
  otherFree = await createPlan(suite.admin, { price: '0', payment_schedule: 'free' });
});

/** Reads Stripe's own view of a customer from the Stripe test server (as the dashboard would). */
type StripeObject = Record<string, unknown> & { id: string; status?: string };
const stripeList = async (path: string): Promise<StripeObject[]> => {
  const res = await fetch(`${fakeUrl()}${path}`, { headers: { authorization: `Bearer ${STRIPE_TEST_KEYS.secret}` } });
  return ((await res.json()) as { data: StripeObject[] }).data;
};
const customerOf = async (user: Session): Promise<string> => (await suite.db('up_users').where({ id: user.id }).first()).stripe_customer_id;
const rowsOf = (user: Session) => suite.db('branchify_subscriptions').where({ user_id: user.id }).orderBy('id');

const subscribe = (user: Session, body: Record<string, unknown>) => user.http.post('/api/users/subscriptions', body, user.token);

describe('who may resume what', () => {
  it('a subscription an administrator cancelled cannot be resumed by its user; the admin can', async () => {
    const user = await verifiedUser();
    const sub = (await subscribe(user, { plan_id: free.id })).body.data;
    const cancelled = await suite.admin.http.post(
      `/api/admin/subscriptions/${sub.id}/cancel`,
      { cancellation_note: 'Chargeback under review', period: 'immediately' },
      suite.admin.token,
    );
    expect(cancelled.status).toBe(200);
    const row = await suite.db('branchify_subscriptions').where({ id: sub.id }).first();
    expect(row).toMatchObject({ status: 'canceled', canceled_by: 'admin', cancellation_reason: 'Chargeback under review' });

    const resumed = await user.http.post(`/api/users/subscriptions/${sub.id}/resume`, {}, user.token);
    expect(resumed.status).toBe(403);
    expect(resumed.body).toEqual({ success: false, message: 'This subscription was ended by an administrator. Please contact support.' });
    expect((await suite.db('branchify_subscriptions').where({ id: sub.id }).first()).status).toBe('canceled');

    const byAdmin = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/resume`, {}, suite.admin.token);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.data.status).toBe('active');
  });

  it('the user resumes what they cancelled themselves, and the row says who cancelled it', async () => {
    const user = await verifiedUser();
    const sub = (await subscribe(user, { plan_id: free.id })).body.data;
    await user.http.post(`/api/users/subscriptions/${sub.id}/cancel`, { period: 'immediately' }, user.token);
    expect((await suite.db('branchify_subscriptions').where({ id: sub.id }).first()).canceled_by).toBe('user');
    const resumed = await user.http.post(`/api/users/subscriptions/${sub.id}/resume`, {}, user.token);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.status).toBe('active');
  });

  it('an unpaid one-time plan retired by a switch to a free plan stays unpaid: its invoice is voided and it cannot be resumed', async () => {
    const user = await verifiedUser();
    const declined = await subscribe(user, { plan_id: oneTime.id, payment_method_id: CARDS.declined });
    expect(declined.status).toBe(402);
    const unpaid = await currentSubscription(user);
    expect(unpaid).toMatchObject({ plan_id: oneTime.id, status: 'payment_required' });
    const openInvoice = await suite.db('branchify_invoices').where({ subscription_id: unpaid.id }).first();
    expect(openInvoice.status).toBe('open');

    const switched = await subscribe(user, { plan_id: free.id });
    expect(switched.status).toBe(201);
    const retired = await suite.db('branchify_subscriptions').where({ id: unpaid.id }).first();
    expect(retired).toMatchObject({ status: 'canceled', canceled_by: 'system' });
    // Nothing is left to pay: the invoice is void here and at Stripe.
    expect((await suite.db('branchify_invoices').where({ id: openInvoice.id }).first()).status).toBe('void');
    const atStripe = (await stripeList(`/v1/invoices?customer=${await customerOf(user)}`)).find((i) => i.id === openInvoice.invoice_id);
    expect(atStripe?.status).toBe('void');

    // Not the current subscription any more, and never paid for.
    const resumed = await user.http.post(`/api/users/subscriptions/${unpaid.id}/resume`, {}, user.token);
    expect(resumed.status).toBe(409);
    expect(resumed.body.message).toBe('Only your current subscription can be resumed.');
    expect((await suite.db('branchify_subscriptions').where({ id: unpaid.id }).first()).status).toBe('canceled');
    expect(await currentSubscription(user)).toMatchObject({ plan_id: free.id, status: 'active' });
  });

  it('a one-time plan resumes only when its invoice was paid', async () => {
    const paidUser = await verifiedUser();
    const paid = (await subscribe(paidUser, { plan_id: oneTime.id, payment_method_id: CARDS.visa })).body.data;
    expect(paid.status).toBe('active');
    await paidUser.http.post(`/api/users/subscriptions/${paid.id}/cancel`, {}, paidUser.token);
    const resumed = await paidUser.http.post(`/api/users/subscriptions/${paid.id}/resume`, {}, paidUser.token);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.status).toBe('active');

    // An admin cancelling an unpaid one-time purchase does not make it resumable into access.
    const unpaidUser = await verifiedUser();
    await subscribe(unpaidUser, { plan_id: oneTime.id, payment_method_id: CARDS.declined });
    const unpaid = await currentSubscription(unpaidUser);
    const adminResume = await suite.admin.http.post(`/api/admin/subscriptions/${unpaid.id}/resume`, {}, suite.admin.token);
    expect(adminResume.status).toBe(409);
    expect(adminResume.body.message).toBe('Only canceled subscriptions can be resumed.');
  });

  it('change and resume act only on the current subscription', async () => {
    const user = await verifiedUser();
    const first = (await subscribe(user, { plan_id: free.id })).body.data;
    const changed = await user.http.post(`/api/users/subscriptions/${first.id}/change`, { plan_id: otherFree.id }, user.token);
    expect(changed.status).toBe(200);
    const current = await currentSubscription(user);
    expect(current.id).not.toBe(first.id);

    const changeOld = await user.http.post(`/api/users/subscriptions/${first.id}/change`, { plan_id: free.id }, user.token);
    expect(changeOld.status).toBe(409);
    expect(changeOld.body.message).toBe('Only your current subscription can be changed.');
    const resumeOld = await user.http.post(`/api/users/subscriptions/${first.id}/resume`, {}, user.token);
    expect(resumeOld.status).toBe(409);
    expect(resumeOld.body.message).toBe('Only your current subscription can be resumed.');
    const live = (await rowsOf(user)).filter((r) => r.status !== 'canceled');
    expect(live.map((r) => r.id)).toEqual([current.id]);
  });
});

describe('the same subscribe sent five times at once', () => {
  const five = <T>(make: () => Promise<T>) => Promise.all(Array.from({ length: 5 }, make));

  it('makes one free subscription', async () => {
    const user = await verifiedUser();
    const answers = await five(() => subscribe(user, { plan_id: free.id }));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await rowsOf(user)).toHaveLength(1);
  });

  it('makes one Stripe subscription and one charge for a monthly plan', async () => {
    const user = await verifiedUser();
    const answers = await five(() => subscribe(user, { plan_id: monthly.id, payment_method_id: CARDS.visa }));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
    const customer = await customerOf(user);
    expect(await stripeList(`/v1/subscriptions?customer=${customer}&status=all`)).toHaveLength(1);
    expect(await stripeList(`/v1/charges?customer=${customer}`)).toHaveLength(1);
    expect((await rowsOf(user)).filter((r) => r.status === 'active')).toHaveLength(1);
  });

  it('makes one charge for a one-time plan', async () => {
    const user = await verifiedUser();
    const answers = await five(() => subscribe(user, { plan_id: oneTime.id, payment_method_id: CARDS.visa }));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    const customer = await customerOf(user);
    expect(await stripeList(`/v1/charges?customer=${customer}`)).toHaveLength(1);
    expect(await rowsOf(user)).toHaveLength(1);
  });

  it('waits on one 3-D Secure challenge, not five subscriptions', async () => {
    const user = await verifiedUser();
    const answers = await five(() => subscribe(user, { plan_id: monthly.id, payment_method_id: CARDS.threeDSecure }));
    expect(answers.every((r) => r.status === 202)).toBe(true);
    expect(new Set(answers.map((r) => r.body.data.client_secret)).size).toBe(1);
    const customer = await customerOf(user);
    expect(await stripeList(`/v1/subscriptions?customer=${customer}&status=all`)).toHaveLength(1);
    expect(await rowsOf(user)).toHaveLength(1);
  });

  it('lets the database refuse a second active subscription for one user', async () => {
    const user = await verifiedUser();
    const sub = (await subscribe(user, { plan_id: free.id })).body.data;
    const second = suite
      .db('branchify_subscriptions')
      .insert({ user_id: user.id, plan_id: free.id, status: 'active', managed_by: 'platform', document_id: `dup${sub.id}` })
      .then(
        () => 'stored',
        (error: Error) => error.message,
      );
    expect(await second).toMatch(/unique|duplicate/i);
  });
});
