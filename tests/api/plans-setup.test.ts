// @serial: changes setup, the mailer, Stripe keys, branding for the whole install (tests/harness/groups.js)
import { MESSAGES } from '@branchify/shared';
import { startFreshInstall, type FreshInstall } from '../harness/fresh-install';
import { smtpSettings } from './support/mail';
import { STRIPE_TEST_KEYS } from './support/stripe';

/**
 * The first-run checklist (GET admin/setup) on a fresh install of its own: every step is read from
 * the installation's state, so it starts all open and ticks as the admin does each thing.
 */
describe('the first-run setup checklist', () => {
  let install: FreshInstall;
  let adminToken = '';
  let userToken = '';
  let proId = 0;

  const call = async (method: string, path: string, token: string | null, body?: unknown) => {
    const res = await fetch(`${install.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { success: boolean; message?: string; data?: Record<string, unknown> } };
  };
  const register = async (email: string) => {
    const password = 'setup-pass-123';
    const res = await call('POST', '/api/auth/register', null, { first_name: 'Set', last_name: 'Up', email, password, password_confirmation: password });
    expect(res.status).toBe(201);
    return String((res.body.data as { access_token: string }).access_token);
  };
  const status = async () => (await call('GET', '/api/admin/setup', adminToken)).body.data;
  const planBody = (fields: Record<string, unknown>) => ({
    name: 'Pro',
    price: '12',
    currency: 'usd',
    payment_schedule: 'monthly',
    managed_by: 'platform',
    max_funnel: null,
    max_branch_per_funnel: null,
    video_sources: null,
    ...fields,
  });
  const createPlan = async (fields: Record<string, unknown>) => {
    const res = await call('POST', '/api/admin/plans', adminToken, planBody(fields));
    expect(res.status).toBe(201);
    return res.body.data as { id: number; price_display: string; payment_ready: boolean };
  };
  /** The plans a new user reads on "Choose a plan". */
  const offered = async () => ((await call('GET', '/api/plans', userToken)).body.data as unknown as Array<{ name: string }>).map((p) => p.name);

  beforeAll(async () => {
    install = await startFreshInstall();
    adminToken = await register('setup-admin@example.test');
    userToken = await register('setup-user@example.test');
  });
  afterAll(() => install?.stop());

  it('starts with every step open, and is for admins only', async () => {
    expect(await status()).toEqual({ steps: { plan: false, email: false, stripe: false, branding: false }, complete: false, dismissed: false });
    expect((await call('GET', '/api/admin/setup', userToken)).status).toBe(403);
    expect((await call('GET', '/api/admin/setup', null)).status).toBe(401);
    expect((await call('POST', '/api/admin/setup/dismiss', userToken)).status).toBe(403);
  });

  it('refuses to dismiss an unfinished checklist', async () => {
    const res = await call('POST', '/api/admin/setup/dismiss', adminToken);
    expect(res).toEqual({ status: 409, body: { success: false, message: MESSAGES.setupIncomplete } });
    expect((await status())?.dismissed).toBe(false);
  });

  it('leaves the plan step open while no plan is one a new user can pick: hidden (inactive) or self-managed', async () => {
    // The demo seed's kind of plan: free, but not offered to anyone.
    await createPlan({ name: 'Demo', price: '0', payment_schedule: 'free', is_active: false });
    expect(await offered()).toEqual([]);
    expect((await status())?.steps).toMatchObject({ plan: false });
    // Offered, but sold through the integrator API only: a user cannot pick it on "Choose a plan".
    await createPlan({ name: 'Partner', price: '0', payment_schedule: 'free', managed_by: 'self' });
    expect(await offered()).toEqual(['Partner']);
    expect((await status())?.steps).toMatchObject({ plan: false });
  });

  it('ticks a step as each thing is done, and shows a paid plan as not payable until Stripe is configured', async () => {
    const plan = await createPlan({ name: 'Pro' });
    proId = plan.id;
    // Saved, but nobody can pay for it yet: the admin sees why, and the step stays open (no new
    // user can pick it: "Choose a plan" offers paid plans only once Stripe can sell them).
    expect(plan).toMatchObject({ price_display: '$12.00/month', payment_ready: false });
    expect(await offered()).toEqual(['Partner']);
    expect((await status())?.steps).toEqual({ plan: false, email: false, stripe: false, branding: false });

    // Saving the customization with its defaults unchanged is not branding the app.
    const defaults = (await call('GET', '/api/admin/customizations', adminToken)).body.data!;
    expect((await call('POST', '/api/admin/customizations', adminToken, { app_name: defaults.app_name })).status).toBe(200);
    expect((await status())?.steps).toMatchObject({ branding: false });
    expect((await call('POST', '/api/admin/customizations', adminToken, { app_color_scheme: { primary: '#0b7a3e' } })).status).toBe(200);
    expect((await status())?.steps).toMatchObject({ branding: true });

    expect((await call('PUT', '/api/admin/mailer', adminToken, smtpSettings())).status).toBe(200);
    expect((await status())?.steps).toMatchObject({ plan: false, email: true, stripe: false });

    // Stripe connected: the paid plan is offered, so a new user can pick it and the plan step ticks with Stripe's.
    expect((await call('PUT', '/api/admin/stripe/config', adminToken, STRIPE_TEST_KEYS)).status).toBe(200);
    expect(await status()).toEqual({ steps: { plan: true, email: true, stripe: true, branding: true }, complete: true, dismissed: false });
    expect(await offered()).toEqual(['Partner', 'Pro']);
    const planNow = await call('GET', `/api/admin/plans/${plan.id}`, adminToken);
    expect(planNow.body.data).toMatchObject({ payment_ready: true });
  });

  it('is dismissed for good once every step is done', async () => {
    const res = await call('POST', '/api/admin/setup/dismiss', adminToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: MESSAGES.setupDismissed, data: { complete: true, dismissed: true } });
    expect((await status())?.dismissed).toBe(true);
  });

  it('opens the plan step again (and the checklist with it) when no plan a new user can pick is left, until one is', async () => {
    // Pro deactivated: only the self-managed plan is left on "Choose a plan".
    expect((await call('PUT', `/api/admin/plans/${proId}`, adminToken, planBody({ name: 'Pro', is_active: false }))).status).toBe(200);
    expect(await offered()).toEqual(['Partner']);
    expect(await status()).toEqual({ steps: { plan: false, email: true, stripe: true, branding: true }, complete: false, dismissed: false });

    // A free plan anyone can pick: done, and the earlier dismissal holds again.
    await createPlan({ name: 'Starter', price: '0', payment_schedule: 'free' });
    expect(await offered()).toEqual(['Partner', 'Starter']);
    expect(await status()).toEqual({ steps: { plan: true, email: true, stripe: true, branding: true }, complete: true, dismissed: true });
  });
});
