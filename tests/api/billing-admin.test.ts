// @serial: changes Stripe keys for the whole install (tests/harness/groups.js)
import { CARDS, configureStripe, createPlan, currentSubscription } from './support/stripe';
import { login, PASSWORD, registerUser, verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();
let monthly: { id: number };
let yearly: { id: number };
let free: { id: number };
let selfManaged: { id: number };

beforeAll(async () => {
  await configureStripe(suite.admin);
  monthly = await createPlan(suite.admin, { price: '20.00', payment_schedule: 'monthly' });
  yearly = await createPlan(suite.admin, { price: '200.00', payment_schedule: 'yearly' });
  free = await createPlan(suite.admin, { price: '0', payment_schedule: 'free' });
  selfManaged = await createPlan(suite.admin, { managed_by: 'self' });
});

const addPlan = (userId: number, planId: number) =>
  suite.admin.http.post('/api/admin/subscriptions', { user_id: userId, plan_id: planId, status: 'active', managed_by: 'platform' }, suite.admin.token);

describe('admin subscriptions', () => {
  it("adds a free plan as active: 'Subscription plan added successfully'", async () => {
    const user = await verifiedUser();
    const res = await addPlan(user.id, free.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Subscription plan added successfully' });
    expect(res.body.data.status).toBe('active');
    const shown = await suite.admin.http.get(`/api/admin/subscriptions/users/${user.id}`, suite.admin.token);
    expect(shown.body.data).toMatchObject({ id: res.body.data.id, status: 'active' });
  });

  it('adds a paid plan as payment_required; the user pays the open invoice on login', async () => {
    const user = await verifiedUser();
    const res = await addPlan(user.id, monthly.id);
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('payment_required');

    const session = await login(user.email, PASSWORD);
    const me = await session.http.get('/api/auth/user', session.token);
    expect(me.body.data.subscription.status).toBe('payment_required');
    const invoices = (await session.http.get(`/api/users/subscriptions/${res.body.data.id}/invoices`, session.token)).body.data;
    const open = invoices.find((i: { status: string }) => i.status === 'open');
    expect(open).toBeDefined();
    await session.http.put('/api/payment-method', { payment_method_id: CARDS.visa }, session.token);
    const paid = await session.http.post(`/api/users/subscriptions/${res.body.data.id}/invoices/pay`, { invoice_id: open.invoice_id }, session.token);
    expect(paid.body).toMatchObject({ success: true, message: 'Invoice paid successfully. Your subscription is now active.' });
    expect((await currentSubscription(session)).status).toBe('active');
  });

  it('never charges a saved card: a paid plan still starts payment_required', async () => {
    const user = await verifiedUser();
    await user.http.put('/api/payment-method', { payment_method_id: CARDS.visa }, user.token);
    const res = await addPlan(user.id, monthly.id);
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('payment_required');
    const invoices = (await suite.admin.http.get(`/api/admin/subscriptions/${res.body.data.id}/invoices`, suite.admin.token)).body.data;
    expect(invoices.map((i: { status: string }) => i.status)).toEqual(['open']);
  });

  it('adds over no live subscription: a second add answers 409 and leaves the first alone', async () => {
    const user = await verifiedUser();
    const first = await addPlan(user.id, monthly.id);
    expect(first.body.data.status).toBe('payment_required');
    for (const planId of [monthly.id, yearly.id, free.id]) {
      const again = await addPlan(user.id, planId);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ success: false, message: 'This user already has a subscription. Change their plan instead.' });
    }
    expect((await suite.admin.http.get(`/api/admin/subscriptions/users/${user.id}`, suite.admin.token)).body.data).toMatchObject({
      id: first.body.data.id,
      status: 'payment_required',
    });
  });

  it.each([
    ['a free plan', () => free.id, 'active'],
    ['a paid plan', () => monthly.id, 'payment_required'],
  ])('five parallel adds of %s for one user make one subscription', async (_name, planId, status) => {
    const user = await verifiedUser();
    const answers = await Promise.all(Array.from({ length: 5 }, () => addPlan(user.id, planId())));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const rows = await suite.db('branchify_subscriptions').where({ user_id: user.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status, plan_id: planId() });
    expect((await suite.db('up_users').where({ id: user.id }).first()).subscription_id).toBe(rows[0].id);
    if (status === 'payment_required') {
      // One subscription at Stripe as well, with one open invoice.
      const invoices = await suite.db('branchify_invoices').where({ user_id: user.id });
      expect(invoices.map((i: { status: string }) => i.status)).toEqual(['open']);
    }
  });

  it("refuses admin accounts and self-managed plans with the spec's messages", async () => {
    const me = await suite.admin.http.get('/api/auth/user', suite.admin.token);
    const adminTarget = await addPlan(me.body.data.id, free.id);
    expect(adminTarget.status).toBe(422);
    expect(adminTarget.body.errors).toEqual({ plan_id: ["Admin accounts don't support subscriptions."] });
    const user = await verifiedUser();
    const self = await addPlan(user.id, selfManaged.id);
    expect(self.body.errors).toEqual({
      plan_id: ['Self-managed plans cannot be added through this interface. You should use our API to create the subscription for this user.'],
    });
    expect((await addPlan(999999, free.id)).status).toBe(404);
  });

  it('changes, cancels (with a reason) and resumes', async () => {
    const user = await verifiedUser();
    const res = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.visa }, user.token);
    const sub = res.body.data;
    expect(sub.status).toBe('active');

    // The admin's change leaves the difference for the user to pay: nothing is charged.
    const changed = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/change`, { plan_id: yearly.id }, suite.admin.token);
    expect(changed.body).toMatchObject({ success: true, message: 'Subscription plan changed successfully' });
    expect(changed.body.data).toMatchObject({ id: sub.id, plan_id: yearly.id, status: 'payment_required' });
    const open = (await user.http.get(`/api/users/subscriptions/${sub.id}/invoices`, user.token)).body.data.find(
      (i: { status: string }) => i.status === 'open',
    );
    const paid = await user.http.post(`/api/users/subscriptions/${sub.id}/invoices/pay`, { invoice_id: open.invoice_id }, user.token);
    expect(paid.body.data).toMatchObject({ plan_id: yearly.id, status: 'active' });

    const noReason = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/cancel`, { period: 'immediately' }, suite.admin.token);
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors).toEqual({ cancellation_note: ['Please give a reason for the cancellation.'] });

    const cancelled = await suite.admin.http.post(
      `/api/admin/subscriptions/${sub.id}/cancel`,
      { cancellation_reason: 'Requested by customer', cancellation_note: 'Requested by customer', period: 'cancel_at_period_end', cancel_at_period_end: true },
      suite.admin.token,
    );
    expect(cancelled.body).toMatchObject({ success: true, message: 'Subscription cancelled successfully' });
    expect(cancelled.body.data.status).toBe('canceled');

    const again = await suite.admin.http.post(
      `/api/admin/subscriptions/${sub.id}/cancel`,
      { cancellation_note: 'x', period: 'immediately' },
      suite.admin.token,
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This user doesn't have an active subscription to cancel.");

    const resumed = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/resume`, {}, suite.admin.token);
    expect(resumed.body).toMatchObject({ success: true, message: 'Subscription resumed successfully' });
    expect(resumed.body.data.status).toBe('active');
  });

  it('refuses to change, cancel or resume a self-managed subscription', async () => {
    const user = await verifiedUser();
    const sub = (await addPlan(user.id, free.id)).body.data;
    await suite.db('branchify_subscriptions').where({ id: sub.id }).update({ managed_by: 'self' });
    const change = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/change`, { plan_id: monthly.id }, suite.admin.token);
    expect(change.body.errors).toEqual({ plan_id: ['Only platform-managed subscriptions can be changed through this interface.'] });
    const cancel = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/cancel`, { cancellation_note: 'x' }, suite.admin.token);
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toBe(
      'We are not able to cancel this subscription from here. You should use our API to update the subscription status to canceled.',
    );
    await suite.db('branchify_subscriptions').where({ id: sub.id }).update({ status: 'canceled' });
    const resume = await suite.admin.http.post(`/api/admin/subscriptions/${sub.id}/resume`, {}, suite.admin.token);
    expect(resume.body.message).toBe(
      'We are not able to resume this subscription from here. You should use our API to update the subscription status to active.',
    );
  });

  it('is admin-only', async () => {
    const user = await verifiedUser();
    expect((await user.http.post('/api/admin/subscriptions', { user_id: user.id, plan_id: free.id }, user.token)).status).toBe(403);
    expect((await user.http.get(`/api/admin/subscriptions/users/${user.id}`, user.token)).status).toBe(403);
  });
});

describe('refunds', () => {
  const paidSubscription = async () => {
    const user = await verifiedUser();
    const res = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.visa }, user.token);
    const invoice = (await suite.admin.http.get(`/api/admin/subscriptions/${res.body.data.id}/invoices`, suite.admin.token)).body.data[0];
    return { user, sub: res.body.data, invoice };
  };
  const refund = (subId: number, body: object) => suite.admin.http.post(`/api/admin/subscriptions/invoices/${subId}/refund`, body, suite.admin.token);

  it("refunds in parts up to the total: 'paid' with the refunded amount until all went back, then 'refunded' and 409", async () => {
    const { sub, invoice } = await paidSubscription();
    expect(invoice).toMatchObject({ status: 'paid', amount: 20 });
    const tooMuch = await refund(sub.id, { invoice_id: invoice.invoice_id, amount: 25 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors).toEqual({ refund_amount: ['Refund amount cannot exceed the invoice amount.'] });
    const zero = await refund(sub.id, { invoice_id: invoice.invoice_id, amount: 0 });
    expect(zero.body.errors).toEqual({ refund_amount: ['The refund amount must be greater than 0.'] });

    const partial = await refund(sub.id, { invoice_id: invoice.invoice_id, amount: 5.5 });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ success: true, message: 'Invoice refunded successfully' });
    expect(partial.body.data).toMatchObject({ status: 'paid', amount_refunded: 5.5 });

    // More than what is left is refused, naming what is left.
    const overRest = await refund(sub.id, { invoice_id: invoice.invoice_id, amount: 15 });
    expect(overRest.status).toBe(422);
    expect(overRest.body.errors).toEqual({ refund_amount: ['Refund amount cannot exceed the $14.50 not yet refunded.'] });

    const second = await refund(sub.id, { invoice_id: invoice.invoice_id, amount: 4.5 });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ status: 'paid', amount_refunded: 10 });

    // No amount: the rest.
    const rest = await refund(sub.id, { invoice_id: invoice.invoice_id });
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({ status: 'refunded', amount_refunded: 20 });

    const again = await refund(sub.id, { invoice_id: invoice.invoice_id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This invoice has already been refunded.');
  });

  it('refunds the full amount when no amount is given', async () => {
    const { sub, invoice } = await paidSubscription();
    const res = await refund(sub.id, { invoice_id: invoice.invoice_id });
    expect(res.body.data).toMatchObject({ status: 'refunded', amount_refunded: 20 });
  });

  it("refuses an unpaid invoice: 'This invoice may still be pending.'", async () => {
    const user = await verifiedUser();
    const sub = (await addPlan(user.id, monthly.id)).body.data;
    const invoice = (await suite.admin.http.get(`/api/admin/subscriptions/${sub.id}/invoices`, suite.admin.token)).body.data[0];
    expect(invoice.status).toBe('open');
    const res = await refund(sub.id, { invoice_id: invoice.invoice_id });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('This invoice may still be pending.');
  });

  it('404s an invoice of another subscription', async () => {
    const a = await paidSubscription();
    const b = await paidSubscription();
    expect((await refund(a.sub.id, { invoice_id: b.invoice.invoice_id })).status).toBe(404);
  });

  it('is admin-only', async () => {
    const { user, sub, invoice } = await paidSubscription();
    const res = await user.http.post(`/api/admin/subscriptions/invoices/${sub.id}/refund`, { invoice_id: invoice.invoice_id }, user.token);
    expect(res.status).toBe(403);
    void registerUser;
  });
});

describe('billing history', () => {
  type Listed = { invoice_id: string; subscription_id: number; plan: { id: number; name: string } | null; status: string; amount_refunded: number };

  it('lists every invoice of every subscription of the user, newest first, with its plan, for the user and the admin', async () => {
    const user = await verifiedUser();
    const first = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.visa }, user.token);
    expect(first.body.data.status).toBe('active');
    const paid = (await suite.admin.http.get(`/api/admin/subscriptions/${first.body.data.id}/invoices`, suite.admin.token)).body.data[0];
    expect(
      (
        await suite.admin.http.post(
          `/api/admin/subscriptions/invoices/${first.body.data.id}/refund`,
          { invoice_id: paid.invoice_id, amount: 5 },
          suite.admin.token,
        )
      ).status,
    ).toBe(200);
    // The admin moves the user to the free plan: the paid invoice stays in the user's history.
    const changed = await suite.admin.http.post(`/api/admin/subscriptions/${first.body.data.id}/change`, { plan_id: free.id }, suite.admin.token);
    expect(changed.status).toBe(200);
    expect(changed.body.data.plan_id).toBe(free.id);
    // Then the user buys the yearly plan.
    const current = await currentSubscription(user);
    const yearlyBuy = await user.http.post(`/api/users/subscriptions/${current.id}/change`, { plan_id: yearly.id, payment_method_id: CARDS.visa }, user.token);
    expect(yearlyBuy.status).toBe(200);

    const mine = await user.http.get('/api/users/invoices', user.token);
    expect(mine.status).toBe(200);
    const list = mine.body.data as Listed[];
    expect(list.map((i) => i.plan?.id)).toEqual([yearly.id, monthly.id]);
    expect(list[1]).toMatchObject({ invoice_id: paid.invoice_id, subscription_id: first.body.data.id, status: 'paid', amount_refunded: 5 });

    const seenByAdmin = await suite.admin.http.get(`/api/admin/subscriptions/users/${user.id}/invoices`, suite.admin.token);
    expect(seenByAdmin.status).toBe(200);
    expect(seenByAdmin.body.data).toEqual(list);
  });

  it('says who ended a subscription (canceled_by), and only the resumes the rules allow succeed', async () => {
    const byUser = await paidSubscriptionFor();
    const own = await currentSubscription(byUser);
    expect(own.canceled_by).toBeNull();
    const cancelled = await byUser.http.post(`/api/users/subscriptions/${own.id}/cancel`, { period: 'immediately' }, byUser.token);
    expect(cancelled.body.data.canceled_by).toBe('user');

    const byAdmin = await paidSubscriptionFor();
    const theirs = await currentSubscription(byAdmin);
    const ended = await suite.admin.http.post(
      `/api/admin/subscriptions/${theirs.id}/cancel`,
      { period: 'immediately', cancellation_note: 'Chargeback' },
      suite.admin.token,
    );
    expect(ended.body.data.canceled_by).toBe('admin');
    expect((await currentSubscription(byAdmin)).canceled_by).toBe('admin');
    const refused = await byAdmin.http.post(`/api/users/subscriptions/${theirs.id}/resume`, {}, byAdmin.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('This subscription was ended by an administrator. Please contact support.');
  });

  it("shows nobody else's invoices; an unknown user is a 404 for the admin", async () => {
    const someone = await paidSubscriptionFor();
    const other = await verifiedUser();
    expect((await other.http.get('/api/users/invoices', other.token)).body.data).toEqual([]);
    expect((await someone.http.get('/api/users/invoices', someone.token)).body.data).toHaveLength(1);
    expect((await suite.admin.http.get('/api/admin/subscriptions/users/99999999/invoices', suite.admin.token)).status).toBe(404);
    expect((await other.http.get(`/api/admin/subscriptions/users/${someone.id}/invoices`, other.token)).status).toBe(403);
  });

  const paidSubscriptionFor = async () => {
    const user = await verifiedUser();
    await user.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.visa }, user.token);
    return user;
  };
});
