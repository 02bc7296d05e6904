// @serial: changes Stripe keys for the whole install (tests/harness/groups.js)
import { CARDS, configureStripe, createPlan, currentSubscription } from './support/stripe';
import { registerUser, verifiedUser, type Session } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();
let monthly: { id: number };
let yearly: { id: number };
let free: { id: number };
let oneTime: { id: number };

beforeAll(async () => {
  await configureStripe(suite.admin);
  monthly = await createPlan(suite.admin, { price: '10.00', payment_schedule: 'monthly' });
  yearly = await createPlan(suite.admin, { price: '100.00', payment_schedule: 'yearly' });
  free = await createPlan(suite.admin, { price: '0', payment_schedule: 'free' });
  oneTime = await createPlan(suite.admin, { price: '30.00', payment_schedule: 'one-time' });
});

const subscribed = async (planId: number): Promise<{ user: Session; id: number }> => {
  const user = await verifiedUser();
  const res = await user.http.post('/api/users/subscriptions', { plan_id: planId, payment_method_id: CARDS.visa }, user.token);
  expect(res.status).toBe(201);
  return { user, id: res.body.data.id };
};

describe('cancel and resume (user)', () => {
  it('cancels at period end into a grace period, and resumes to active at once', async () => {
    const { user, id } = await subscribed(monthly.id);
    const res = await user.http.post(`/api/users/subscriptions/${id}/cancel`, { period: 'cancel_at_period_end' }, user.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Subscription cancelled successfully' });
    expect(res.body.data.status).toBe('canceled');
    expect(new Date(res.body.data.canceled_at).getTime()).toBeGreaterThan(Date.now());

    const again = await user.http.post(`/api/users/subscriptions/${id}/cancel`, { period: 'immediately' }, user.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This user doesn't have an active subscription to cancel.");

    const resumed = await user.http.post(`/api/users/subscriptions/${id}/resume`, {}, user.token);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ success: true, message: 'Subscription resumed successfully' });
    expect(resumed.body.data).toMatchObject({ status: 'active', canceled_at: null });
  });

  it('cancels immediately, then resume starts it again on the same plan', async () => {
    const { user, id } = await subscribed(monthly.id);
    const res = await user.http.post(`/api/users/subscriptions/${id}/cancel`, { period: 'immediately' }, user.token);
    expect(res.body.data.status).toBe('canceled');
    expect(new Date(res.body.data.canceled_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const resumed = await user.http.post(`/api/users/subscriptions/${id}/resume`, {}, user.token);
    expect(resumed.status).toBe(200);
    expect(await currentSubscription(user)).toMatchObject({ status: 'active', plan_id: monthly.id });
  });

  it('always cancels a one-time plan immediately', async () => {
    const { user, id } = await subscribed(oneTime.id);
    const res = await user.http.post(`/api/users/subscriptions/${id}/cancel`, { period: 'cancel_at_period_end' }, user.token);
    expect(res.body.data.status).toBe('canceled');
    expect(new Date(res.body.data.canceled_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("only resumes canceled subscriptions: 'Only canceled subscriptions can be resumed.'", async () => {
    const { user, id } = await subscribed(monthly.id);
    const res = await user.http.post(`/api/users/subscriptions/${id}/resume`, {}, user.token);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Only canceled subscriptions can be resumed.');
  });
});

describe('changing plan (user)', () => {
  it("moves monthly → yearly on the same Stripe subscription: 'Subscription plan changed successfully'", async () => {
    const { user, id } = await subscribed(monthly.id);
    const res = await user.http.post(`/api/users/subscriptions/${id}/change`, { plan_id: yearly.id, status: 'active' }, user.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Subscription plan changed successfully' });
    expect(res.body.data).toMatchObject({ id, plan_id: yearly.id, status: 'active' });
  });

  it('moves paid → free and keeps the history', async () => {
    const { user, id } = await subscribed(monthly.id);
    const res = await user.http.post(`/api/users/subscriptions/${id}/change`, { plan_id: free.id }, user.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ plan_id: free.id, status: 'active' });
    expect(res.body.data.id).not.toBe(id);
    expect((await currentSubscription(user)).plan_id).toBe(free.id);
  });

  it('refuses the same plan', async () => {
    const { user, id } = await subscribed(monthly.id);
    const res = await user.http.post(`/api/users/subscriptions/${id}/change`, { plan_id: monthly.id }, user.token);
    expect(res.status).toBe(422);
    expect(res.body.errors.plan_id).toEqual(['The new plan must be different from the current plan.']);
  });
});

describe('the user area needs a verified email', () => {
  it("answers 403 'Your email address is not verified.'", async () => {
    const user = await registerUser();
    const res = await user.http.get('/api/users/subscriptions', user.token);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Your email address is not verified.');
  });
});
