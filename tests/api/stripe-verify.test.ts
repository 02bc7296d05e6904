// @serial: changes Stripe keys; Stripe test server failures for the whole install (tests/harness/groups.js)
import type { Knex } from 'knex';
import { MESSAGES } from '@branchify/shared';
import { openDb } from './support/db';
import { configureStripe, control, createPlan, STRIPE_TEST_KEYS } from './support/stripe';
import { adminSession, verifiedUser, type Session } from './support/users';

/**
 * Stripe keys are checked with Stripe when they are saved, and payments count as working only with
 * keys Stripe accepted: the "Connect Stripe" setup step, the plans offered to users and the admin's
 * plan list follow that, and say why when payments cannot work.
 */
describe('Stripe keys are verified', () => {
  let db: Knex;
  let admin: Session;
  let paid: { id: number };
  let free: { id: number };

  const put = (body: object) => admin.http.put('/api/admin/stripe/config', body, admin.token);
  const servedSecret = async () => (await admin.http.get('/api/admin/stripe/config', admin.token)).body.data.secret as string;

  beforeAll(async () => {
    db = openDb();
    admin = await adminSession();
    await configureStripe(admin);
    paid = await createPlan(admin, { price: '9.00', payment_schedule: 'monthly' });
    free = await createPlan(admin, { price: '0', payment_schedule: 'free' });
  });
  afterAll(async () => {
    await control('fail', { count: 0 });
    await configureStripe(admin);
    await db.destroy();
  });

  it('reports keys Stripe accepted as ready', async () => {
    const view = (await admin.http.get('/api/admin/stripe', admin.token)).body.data;
    expect(view).toMatchObject({ configured: true, ready: true, problem: null });
    expect((await admin.http.get('/api/admin/setup', admin.token)).body.data.steps.stripe).toBe(true);
  });

  it('refuses a secret key Stripe refuses, and keeps the saved one', async () => {
    const before = await servedSecret();
    await control('fail', { status: 401, count: 1, path: '^/v1/customers' });
    const res = await put({ ...STRIPE_TEST_KEYS, secret: 'sk_test_made_up_by_hand_0000' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, message: MESSAGES.stripeSecretRefused, errors: { secret: [MESSAGES.stripeSecretRefused] } });
    expect(await servedSecret()).toBe(before);
  });

  it('refuses a test secret key with a live publishable key without asking Stripe', async () => {
    const res = await put({ ...STRIPE_TEST_KEYS, publishable_key: 'pk_live_branchify_suite' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ publishable_key: [MESSAGES.stripeKeysMismatch] });
  });

  it('saves nothing when Stripe cannot be reached to check the keys', async () => {
    await control('fail', { status: 503, count: 5, path: '^/v1/customers' });
    const res = await put({ ...STRIPE_TEST_KEYS, secret: 'sk_test_another_key_checked_0001' });
    await control('fail', { count: 0 });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe(MESSAGES.stripeUnreachableOnSave);
    expect(await servedSecret()).toBe(`sk_test_****${STRIPE_TEST_KEYS.secret.slice(-4)}`);
  });

  it('while Stripe refuses the keys in use: the step is open, paid plans are not offered, the admin reads why', async () => {
    const user = await verifiedUser();
    // Keys that stopped working (revoked at Stripe since they were saved).
    await db('branchify_stripe_settings').update({ verified_fingerprint: null });
    await control('fail', { status: 401, count: 1, path: '^/v1/customers' });
    const view = (await admin.http.get('/api/admin/stripe', admin.token)).body.data;
    expect(view).toMatchObject({ configured: true, ready: false, problem: 'refused' });
    expect((await admin.http.get('/api/admin/setup', admin.token)).body.data.steps.stripe).toBe(false);

    const offered = ((await user.http.get('/api/plans', user.token)).body.data as Array<{ id: number }>).map((p) => p.id);
    expect(offered).toContain(free.id);
    expect(offered).not.toContain(paid.id);
    const adminPlan = (await admin.http.get(`/api/admin/plans/${paid.id}`, admin.token)).body.data;
    expect(adminPlan.payment_ready).toBe(false);
    const integration = (await user.http.get('/api/users/subscriptions/stripe-integration', user.token)).body.data;
    expect(integration.integrated).toBe(false);

    // Saving keys Stripe accepts makes payments work again.
    expect((await put(STRIPE_TEST_KEYS)).status).toBe(200);
    expect((await admin.http.get('/api/admin/stripe', admin.token)).body.data).toMatchObject({ ready: true, problem: null });
    expect(((await user.http.get('/api/plans', user.token)).body.data as Array<{ id: number }>).map((p) => p.id)).toContain(paid.id);
  });
});
