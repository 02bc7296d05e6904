// @serial: changes Stripe keys and plans for the whole install (tests/harness/groups.js)
import { MESSAGES } from '@branchify/shared';
import { call, spawnApp, type SpawnedApp } from './support/spawn';
import { openDb } from './support/db';
import { CARDS, configureStripe, control, fakeUrl, STRIPE_TEST_KEYS } from './support/stripe';
import { adminSession, verifiedUser } from './support/users';

/**
 * Two installs of Branchify on one Stripe account (a staging copy, a second brand): each has its own
 * user 1 and plan 1, so what each asks Stripe for must stay its own. Both start fresh, as `npm start`
 * starts them, against the suite's Stripe test server.
 */
describe('two installs on one Stripe account', () => {
  const apps: SpawnedApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.cleanUp();
  });

  /** A fresh install with Stripe set up and one plan; its first creator subscribes to it. */
  const firstSubscription = async (app: SpawnedApp) => {
    const { base } = app;
    const password = 'two-installs-pass-1';
    // The first account is the administrator; the creator is the same person on both installs.
    const owner = await call(`${base}/api/auth/register`, {
      method: 'POST',
      body: { first_name: 'Owner', last_name: 'One', email: 'owner@example.test', password, password_confirmation: password },
    });
    const token = String(owner.body.data?.access_token);
    expect((await call(`${base}/api/admin/stripe/config`, { method: 'PUT', token, body: STRIPE_TEST_KEYS })).status).toBe(200);
    const plan = await call(`${base}/api/admin/plans`, {
      method: 'POST',
      token,
      body: { name: 'Pro', price: '19.99', currency: 'usd', payment_schedule: 'monthly', managed_by: 'platform' },
    });
    expect(plan.status).toBe(201);
    const creator = { first_name: 'Cora', last_name: 'Creator', email: 'cora@example.test', password, password_confirmation: password };
    expect((await call(`${base}/api/admin/users`, { method: 'POST', token, body: creator })).status).toBe(201);
    const session = await call(`${base}/api/auth/login`, { method: 'POST', body: { email: creator.email, password } });
    const creatorToken = String(session.body.data?.access_token);
    const subscribed = await call(`${base}/api/users/subscriptions`, {
      method: 'POST',
      token: creatorToken,
      body: { plan_id: plan.body.data?.id, payment_method_id: CARDS.visa },
    });
    const db = app.openDb();
    try {
      const row = await db('branchify_subscriptions').first();
      const user = await db('up_users').where({ email: creator.email }).first();
      return {
        subscribed,
        stripeSubscription: row?.stripe_subscription_id as string | undefined,
        customer: user?.stripe_customer_id as string | undefined,
        userId: user?.id as number,
        install: await db('branchify_settings')
          .where({ name: 'install-id' })
          .first()
          .then(
            (r: { value: string } | undefined) => r?.value ?? null,
            () => null,
          ),
      };
    } finally {
      await db.destroy();
    }
  };

  let made: Array<Awaited<ReturnType<typeof firstSubscription>>> = [];

  it('makes each its own customer and subscription at Stripe (idempotency keys carry the install id)', async () => {
    apps.push(await spawnApp(), await spawnApp());
    made = [await firstSubscription(apps[0]!), await firstSubscription(apps[1]!)];
    const [a, b] = made as [(typeof made)[number], (typeof made)[number]];

    expect(a.subscribed.status).toBe(201);
    expect(b.subscribed.status).toBe(201);
    expect(b.subscribed.body.message).toBe(MESSAGES.subscriptionCreated);
    expect(a.stripeSubscription).toMatch(/^sub_/);
    expect(b.stripeSubscription).toMatch(/^sub_/);
    expect(b.stripeSubscription).not.toBe(a.stripeSubscription);
    expect(b.customer).not.toBe(a.customer);

    // At Stripe: two live subscriptions, one per install's customer, each charged once.
    for (const [mine, customer] of [
      [a.stripeSubscription, a.customer],
      [b.stripeSubscription, b.customer],
    ]) {
      const res = await fetch(`${fakeUrl()}/v1/subscriptions/${mine}`, { headers: { authorization: `Bearer ${STRIPE_TEST_KEYS.secret}` } });
      expect(await res.json()).toMatchObject({ status: 'active', customer });
    }
    const charges = await control<Array<{ customer: string; amount: number }>>('charges');
    expect(charges.filter((c) => c.customer === a.customer).map((c) => c.amount)).toEqual([1999]);
    expect(charges.filter((c) => c.customer === b.customer).map((c) => c.amount)).toEqual([1999]);

    // Each install keeps its own id (in its database), and its keys start with it.
    expect(a.install).toMatch(/^bfi_/);
    expect(b.install).toMatch(/^bfi_/);
    expect(b.install).not.toBe(a.install);
    const keys = (await control<Array<{ idempotencyKey: string | null; path: string }>>('requests')).map((r) => r.idempotencyKey);
    expect(keys).toContain(`${a.install}:customer:${a.userId}`);
    expect(keys).toContain(`${b.install}:customer:${b.userId}`);
  });

  it("writes nothing here for another install's subscription, though its metadata names a user id this install also has", async () => {
    const [a] = made;
    expect(a?.stripeSubscription).toMatch(/^sub_/);
    const db = openDb();
    try {
      const admin = await adminSession();
      await configureStripe(admin);
      // This install has a user with the other install's creator's id.
      while (Number((await db('up_users').max({ id: 'id' }).first())?.id ?? 0) < a!.userId) await verifiedUser();
      const before = await db('up_users').where({ id: a!.userId }).first();
      const events = await control<Array<{ id: string; type: string; data: { object: { id?: string; subscription?: string } } }>>('events');
      const about = events.filter((e) => e.data.object.id === a!.stripeSubscription || e.data.object.subscription === a!.stripeSubscription).map((e) => e.id);
      expect(about.length).toBeGreaterThan(0);
      const { deliveries } = await control<{ deliveries: Array<{ status: number }> }>('webhooks/deliver', { events: about.reverse() });
      expect(deliveries.every((d) => d.status === 200)).toBe(true);
      expect(await db('branchify_subscriptions').where({ stripe_subscription_id: a!.stripeSubscription })).toHaveLength(0);
      // Another suite may have deleted the user with that id; then no row may have appeared either.
      const after = await db('up_users').where({ id: a!.userId }).first();
      expect(after?.subscription_id ?? null).toBe(before?.subscription_id ?? null);
      expect(Boolean(after)).toBe(Boolean(before));
    } finally {
      await db.destroy();
    }
  });
});
