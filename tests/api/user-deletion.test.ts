// @serial: changes Stripe keys; Stripe test server failures for the whole install (tests/harness/groups.js)
import { randomUUID } from 'node:crypto';
import { addVideo, createFunnel } from './support/content';
import { client } from './support/http';
import { CARDS, configureStripe, control, createPlan, fakeUrl, STRIPE_TEST_KEYS } from './support/stripe';
import { verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

beforeAll(async () => {
  await configureStripe(suite.admin);
});

const stripeGet = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${fakeUrl()}${path}`, { headers: { authorization: `Bearer ${STRIPE_TEST_KEYS.secret}` } });
  return (await res.json()) as T;
};
const stripeSubscription = (id: string) => stripeGet<{ status: string }>(`/v1/subscriptions/${id}`);

/** Every Stripe subscription of the customers made for this email, whatever their status. */
const stripeSubscriptionsOf = async (email: string) => {
  const customers = await stripeGet<{ data: Array<{ id: string }> }>(`/v1/customers?email=${encodeURIComponent(email)}&limit=100`);
  const all: Array<{ id: string; status: string }> = [];
  for (const customer of customers.data) {
    all.push(...(await stripeGet<{ data: Array<{ id: string; status: string }> }>(`/v1/subscriptions?customer=${customer.id}&status=all&limit=100`)).data);
  }
  return all;
};

/** A paying creator with a library, a funnel and a viewer's visit: everything a deletion must take. */
const payingCreator = async (planId: number) => {
  const user = await verifiedUser();
  const sub = await user.http.post('/api/users/subscriptions', { plan_id: planId, payment_method_id: CARDS.visa }, user.token);
  expect(sub.status).toBe(201);
  const video = await addVideo(user);
  const funnel = await createFunnel(user);
  const saved = await user.http.put(
    `/api/funnels/${funnel.id}`,
    { title: 'Owned', description: '', settings: { enable_resume_play: false }, videos: [{ id: video.id, editor_id: 'a', elements: [] }] },
    user.token,
  );
  expect(saved.status).toBe(200);
  expect((await client().post(`/api/funnels/${funnel.identifier}/views`, { event_id: randomUUID() })).status).toBeLessThan(300);
  const row = await suite.db('branchify_subscriptions').where({ user_id: user.id }).first();
  return { user, funnel, video, stripeId: row.stripe_subscription_id as string };
};

const owned = async (userId: number) => ({
  subscriptions: (await suite.db('branchify_subscriptions').where({ user_id: userId })).length,
  invoices: (await suite.db('branchify_invoices').where({ user_id: userId })).length,
  funnels: (await suite.db('branchify_funnels').where({ owner_id: userId })).length,
  videos: (await suite.db('branchify_videos').where({ owner_id: userId })).length,
  links: (await suite.db('branchify_funnel_videos').where({ owner_id: userId })).length,
  refreshTokens: (await suite.db('branchify_refresh_tokens').where({ user_id: userId })).length,
});

describe('deleting a user', () => {
  it('stops their Stripe billing first, then removes everything they owned, so their plan can be deleted', async () => {
    const plan = await createPlan(suite.admin, { price: '9.00', payment_schedule: 'monthly' });
    const { user, funnel, stripeId } = await payingCreator(plan.id);
    expect(stripeId).toMatch(/^sub_/);

    const res = await suite.admin.http.delete(`/api/admin/users/${user.id}`, suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'User deleted successfully' });

    expect((await stripeSubscription(stripeId)).status).toBe('canceled');
    expect(await suite.db('up_users').where({ id: user.id }).first()).toBeUndefined();
    expect(await owned(user.id)).toEqual({ subscriptions: 0, invoices: 0, funnels: 0, videos: 0, links: 0, refreshTokens: 0 });
    expect(await suite.db('branchify_funnel_views').where({ funnel_id: funnel.id })).toHaveLength(0);
    expect((await client().get(`/api/funnels/${funnel.identifier}/player`)).status).toBe(404);

    const planGone = await suite.admin.http.delete(`/api/admin/plans/${plan.id}`, suite.admin.token);
    expect(planGone.status).toBe(200);

    // Stripe's later news about that customer writes nothing for a user who is gone.
    const events = await control<Array<{ id: string; data: { object: { id?: string; subscription?: string } } }>>('events');
    const about = events.filter((e) => e.data.object.id === stripeId).map((e) => e.id);
    expect(about.length).toBeGreaterThan(0);
    await control('webhooks/deliver', { events: about });
    expect(await suite.db('branchify_subscriptions').where({ stripe_subscription_id: stripeId })).toHaveLength(0);
  });

  it('keeps the user and everything they own when Stripe cannot cancel their subscription', async () => {
    const plan = await createPlan(suite.admin, { price: '9.00', payment_schedule: 'monthly' });
    const { user, stripeId } = await payingCreator(plan.id);
    const before = await owned(user.id);

    await control('fail', { count: 3, status: 500, path: `/v1/subscriptions/${stripeId}` });
    const res = await suite.admin.http.delete(`/api/admin/users/${user.id}`, suite.admin.token);
    await control('fail', { count: 0 });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe(
      "We could not cancel this user's subscription with the payment provider, so the account was not deleted. Please try again in a moment.",
    );
    expect(await suite.db('up_users').where({ id: user.id }).first()).toBeDefined();
    expect(await owned(user.id)).toEqual(before);
    expect((await stripeSubscription(stripeId)).status).toBe('active');
  });

  it('deletes a user without any subscription', async () => {
    const user = await verifiedUser();
    await addVideo(user).catch(() => undefined);
    const res = await suite.admin.http.delete(`/api/admin/users/${user.id}`, suite.admin.token);
    expect(res.status).toBe(200);
    expect(await owned(user.id)).toMatchObject({ subscriptions: 0, videos: 0, funnels: 0 });
  });
});

describe('deleting a user while they subscribe', () => {
  it('never leaves a live Stripe subscription for the deleted user, and never answers 500 (10 parallel rounds)', async () => {
    const first = await createPlan(suite.admin, { price: '9.00', payment_schedule: 'monthly' });
    const plan = await createPlan(suite.admin, { price: '19.99', payment_schedule: 'monthly' });
    // A deliberate head start of a few ms (the point: each order of the two requests is met).
    const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let round = 0; round < 10; round += 1) {
      // Every other user already pays for a plan, so the deletion talks to Stripe before it removes rows.
      const user = round % 2 ? (await payingCreator(first.id)).user : await verifiedUser();
      // Both at once, the one or the other a few milliseconds ahead, so each order is met.
      const [subscribed, deleted] = await Promise.all([
        after(round % 4 < 2 ? round : 0).then(() =>
          user.http.post('/api/users/subscriptions', { plan_id: plan.id, payment_method_id: CARDS.visa }, user.token),
        ),
        after(round % 4 < 2 ? 0 : round).then(() => suite.admin.http.delete(`/api/admin/users/${user.id}`, suite.admin.token)),
      ]);
      expect(deleted.status).toBe(200);
      // Made before the deletion (which then ends it), or refused cleanly: signed out, or already subscribed.
      const clean = [201, 401, 409].includes(subscribed.status);
      expect({ round, answer: clean ? 'clean' : subscribed.status }).toEqual({ round, answer: 'clean' });
      if (subscribed.status === 401) expect(subscribed.body).toEqual({ success: false, message: 'Unauthenticated.' });
      expect(await suite.db('up_users').where({ id: user.id }).first()).toBeUndefined();
      expect(await owned(user.id)).toMatchObject({ subscriptions: 0, invoices: 0 });
      const live = (await stripeSubscriptionsOf(user.email)).filter((s) => !['canceled', 'incomplete_expired'].includes(s.status));
      expect({ round, live }).toEqual({ round, live: [] });
    }
  });
});
