// @serial: changes plans and Stripe keys for the whole install (tests/harness/groups.js)
import { client } from './support/http';
import { openDb } from './support/db';
import { subscribedUser } from './support/content';
import { configureStripe } from './support/stripe';
import { registerUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

const planBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Plan ${Math.random().toString(36).slice(2, 8)}`,
  description: 'For growing teams',
  price: '19.99',
  currency: 'usd',
  payment_schedule: 'monthly',
  managed_by: 'platform',
  max_funnel: 10,
  max_branch_per_funnel: null,
  video_sources: ['youtube', 'vimeo'],
  ...overrides,
});

describe('admin plans', () => {
  it("creates a plan with its price display: 'Plan created successfully'", async () => {
    const res = await suite.admin.http.post('/api/admin/plans', planBody({ name: 'Growth' }), suite.admin.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Plan created successfully' });
    expect(res.body.data).toMatchObject({
      name: 'Growth',
      price: '19.99',
      currency: 'usd',
      payment_schedule: 'monthly',
      managed_by: 'platform',
      max_funnel: 10,
      max_branch_per_funnel: null,
      video_sources: ['youtube', 'vimeo'],
      price_display: '$19.99/month',
      is_active: true,
    });
    expect(res.body.data).not.toHaveProperty('stripe_price_id');
  });

  it.each([
    [{ payment_schedule: 'yearly', price: '120' }, '$120.00/year'],
    [{ payment_schedule: 'one-time', price: '49.5' }, '$49.50'],
    [{ payment_schedule: 'free', price: '0' }, 'Free'],
    [{ payment_schedule: 'monthly', price: '9', currency: 'eur' }, '€9.00/month'],
  ])('displays %j as %s', async (overrides, display) => {
    const res = await suite.admin.http.post('/api/admin/plans', planBody(overrides), suite.admin.token);
    expect(res.status).toBe(201);
    expect(res.body.data.price_display).toBe(display);
  });

  it('validates the form, field by field', async () => {
    const res = await suite.admin.http.post(
      '/api/admin/plans',
      { price: 'ten', currency: 'dollars', payment_schedule: 'weekly', managed_by: 'them', max_funnel: -1, video_sources: ['dailymotion'] },
      suite.admin.token,
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(
      ['currency', 'managed_by', 'max_funnel', 'name', 'payment_schedule', 'price', 'video_sources.0'].sort(),
    );
    const free = await suite.admin.http.post('/api/admin/plans', planBody({ payment_schedule: 'free', price: '5' }), suite.admin.token);
    expect(free.body.errors.price).toEqual(['A free plan must have a price of 0.']);
    const paid = await suite.admin.http.post('/api/admin/plans', planBody({ price: '0' }), suite.admin.token);
    expect(paid.body.errors.price).toEqual(['A paid plan must have a price greater than 0.']);
  });

  it('lists with paging and Content-Range, shows, updates and deletes', async () => {
    const made = await suite.admin.http.post('/api/admin/plans', planBody({ name: 'Editable' }), suite.admin.token);
    const id = made.body.data.id;
    const list = await suite.admin.http.get('/api/admin/plans?per_page=2', suite.admin.token);
    expect(list.status).toBe(200);
    expect(list.body.data.meta.per_page).toBe(2);
    expect(list.headers['content-range']).toMatch(/^plans 0-1\/\d+$/);
    const shown = await suite.admin.http.get(`/api/admin/plans/${id}`, suite.admin.token);
    expect(shown.body.data.name).toBe('Editable');

    const updated = await suite.admin.http.put(`/api/admin/plans/${id}`, planBody({ name: 'Edited', price: '25' }), suite.admin.token);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ success: true, message: 'Plan updated successfully' });
    expect(updated.body.data).toMatchObject({ name: 'Edited', price: '25.00' });

    const removed = await suite.admin.http.delete(`/api/admin/plans/${id}`, suite.admin.token);
    expect(removed.body).toMatchObject({ success: true, message: 'Plan deleted successfully' });
    expect((await suite.admin.http.get(`/api/admin/plans/${id}`, suite.admin.token)).status).toBe(404);
  });

  it('is admin-only', async () => {
    const user = await registerUser();
    expect((await user.http.get('/api/admin/plans', user.token)).status).toBe(403);
    expect((await user.http.post('/api/admin/plans', planBody(), user.token)).status).toBe(403);
    expect((await client().get('/api/admin/plans')).status).toBe(401);
  });
});

describe('GET /api/plans', () => {
  it('lists active plans publicly, without Stripe ids, hiding inactive ones', async () => {
    const hidden = await suite.admin.http.post('/api/admin/plans', planBody({ name: 'Hidden plan', is_active: false }), suite.admin.token);
    const res = await client().get('/api/plans');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.data.map((p: { id: number }) => p.id)).not.toContain(hidden.body.data.id);
    for (const plan of res.body.data) {
      expect(plan).toHaveProperty('price_display');
      expect(plan).not.toHaveProperty('stripe_product_id');
    }
  });
});

describe('the admin panel saves what it read (react-admin sends the whole record back)', () => {
  const row = async (id: number) => {
    const db = openDb();
    try {
      return await db('branchify_plans').where({ id }).first();
    } finally {
      await db.destroy();
    }
  };

  it('accepts back, unchanged, the plan GET served: 200 and the row as it was, Stripe ids kept', async () => {
    await configureStripe(suite.admin);
    const made = await suite.admin.http.post(
      '/api/admin/plans',
      planBody({ name: 'Round trip', price: '29', max_funnel: 3, video_sources: null }),
      suite.admin.token,
    );
    expect(made.status).toBe(201);
    const id = made.body.data.id as number;
    const before = await row(id);
    // Saved while Stripe was configured: the plan was mirrored to a Stripe product and price.
    expect(before.stripe_price_id).toEqual(expect.any(String));

    const served = (await suite.admin.http.get(`/api/admin/plans/${id}`, suite.admin.token)).body.data;
    expect(served).toMatchObject({ id, price_display: '$29.00/month', subscriber_count: 0, payment_ready: true });
    expect(served.created_at).toEqual(expect.any(String));

    const res = await suite.admin.http.put(`/api/admin/plans/${id}`, served, suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...served, updated_at: res.body.data.updated_at });
    // The row is as it was: the same Stripe price (a changed price would have been re-mirrored).
    expect(await row(id)).toEqual({ ...before, updated_at: expect.anything() });
  });

  it('ignores read-only fields sent with other values (id, price display, counts, Stripe ids, timestamps)', async () => {
    const made = await suite.admin.http.post('/api/admin/plans', planBody({ name: 'Read-only fields' }), suite.admin.token);
    const id = made.body.data.id as number;
    const before = await row(id);
    const res = await suite.admin.http.put(
      `/api/admin/plans/${id}`,
      {
        ...made.body.data,
        id: id + 1000,
        price_display: 'Free',
        subscriber_count: 99,
        payment_ready: false,
        created_at: '2000-01-01T00:00:00.000Z',
        stripe_price_id: 'price_forged',
        stripe_product_id: 'prod_forged',
      },
      suite.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, price_display: made.body.data.price_display, subscriber_count: 0, created_at: made.body.data.created_at });
    const after = await row(id);
    expect(after.stripe_price_id).toBe(before.stripe_price_id);
    expect(after.stripe_product_id).toBe(before.stripe_product_id);
  });

  it('counts the subscriptions on a plan, and refuses to delete it while it has any', async () => {
    const plan = (await suite.admin.http.post('/api/admin/plans', planBody({ name: 'Held plan', payment_schedule: 'free', price: '0' }), suite.admin.token))
      .body.data;
    await subscribedUser(suite.admin, plan.id);
    const shown = await suite.admin.http.get(`/api/admin/plans/${plan.id}`, suite.admin.token);
    expect(shown.body.data).toMatchObject({ subscriber_count: 1, payment_ready: true, price_display: 'Free' });
    const listed = await suite.admin.http.get(`/api/admin/plans?filter=${encodeURIComponent(JSON.stringify({ q: 'Held plan' }))}`, suite.admin.token);
    expect(listed.body.data.data.find((p: { id: number }) => p.id === plan.id)).toMatchObject({ subscriber_count: 1 });

    const removed = await suite.admin.http.delete(`/api/admin/plans/${plan.id}`, suite.admin.token);
    expect(removed.status).toBe(409);
    expect(removed.body).toEqual({ success: false, message: 'This plan has subscribers. Deactivate it instead of deleting it.' });
    expect((await suite.admin.http.get(`/api/admin/plans/${plan.id}`, suite.admin.token)).status).toBe(200);

    // Deactivating it instead: the form's own record, with is_active off, goes back as is.
    const off = await suite.admin.http.put(`/api/admin/plans/${plan.id}`, { ...shown.body.data, is_active: false }, suite.admin.token);
    expect(off.status).toBe(200);
    expect(off.body.data.is_active).toBe(false);
    expect((await client().get('/api/plans')).body.data.map((p: { id: number }) => p.id)).not.toContain(plan.id);
  });
});
