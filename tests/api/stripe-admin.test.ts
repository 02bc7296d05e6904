import type { Knex } from 'knex';
import request from 'supertest';
import { baseUrl, client } from './support/http';
import { openDb } from './support/db';
import { configureStripe, control, STRIPE_TEST_KEYS } from './support/stripe';
import { adminSession, verifiedUser, type Session } from './support/users';

let db: Knex;
let admin: Session;

beforeAll(async () => {
  db = openDb();
  admin = await adminSession();
  await configureStripe(admin);
});
afterAll(async () => {
  // Leave no connected account behind for the other suites.
  await admin.http.post('/api/admin/stripe/disconnect', {}, admin.token);
  await db.destroy();
});

describe('card provider configuration', () => {
  it("saves credentials encrypted and never echoes the secret: 'Stripe Credentials updated successfully'", async () => {
    const res = await admin.http.put('/api/admin/stripe/config', { ...STRIPE_TEST_KEYS, redirect_url: 'https://evil.example/cb' }, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Stripe Credentials updated successfully' });
    const config = await admin.http.get('/api/admin/stripe/config', admin.token);
    expect(config.body.data).toEqual({
      client_id: STRIPE_TEST_KEYS.client_id,
      secret: `sk_test_****${STRIPE_TEST_KEYS.secret.slice(-4)}`,
      publishable_key: STRIPE_TEST_KEYS.publishable_key,
      webhook_secret: `whsec_test_****${STRIPE_TEST_KEYS.webhook_secret.slice(-4)}`,
      redirect_url: 'http://localhost:1337/api/stripe/oauth/callback',
      has_secret: true,
      has_webhook_secret: true,
      configured: true,
    });
    expect(JSON.stringify(config.body)).not.toContain(STRIPE_TEST_KEYS.secret);
    const row = await db('branchify_stripe_settings').first();
    expect(row.secret_encrypted).not.toContain(STRIPE_TEST_KEYS.secret);
    expect(row.webhook_secret_encrypted).not.toContain(STRIPE_TEST_KEYS.webhook_secret);
  });

  it('validates key prefixes', async () => {
    const res = await admin.http.put('/api/admin/stripe/config', { client_id: 'x', secret: 'pk_wrong', publishable_key: 'sk_wrong' }, admin.token);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['client_id', 'publishable_key', 'secret']);
  });

  it('is admin-only', async () => {
    const user = await verifiedUser();
    for (const path of ['/api/admin/stripe', '/api/admin/stripe/config', '/api/admin/stripe/auth-url']) {
      expect((await user.http.get(path, user.token)).status).toBe(403);
      expect((await client().get(path)).status).toBe(401);
    }
  });
});

describe('Stripe Connect', () => {
  it('builds the OAuth URL with a signed state and connects through the callback', async () => {
    const res = await admin.http.get('/api/admin/stripe/auth-url', admin.token);
    expect(res.status).toBe(200);
    const url = new URL(res.body.data.url);
    expect(url.pathname).toMatch(/oauth\/authorize$/);
    expect(url.searchParams.get('client_id')).toBe(STRIPE_TEST_KEYS.client_id);
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:1337/api/stripe/oauth/callback');
    const state = url.searchParams.get('state')!;
    expect(state).toMatch(/\./);

    const forged = await request(baseUrl())
      .get(`/api/stripe/oauth/callback?code=ac_test&state=${encodeURIComponent(`${state.split('.')[0]}.deadbeef`)}`)
      .set('X-Forwarded-For', '10.77.0.1');
    expect(forged.status).toBe(302);
    expect(forged.headers.location).toMatch(/stripe=invalid-state/);
    expect((await admin.http.get('/api/admin/stripe', admin.token)).body.data.connected).toBe(false);

    const ok = await request(baseUrl())
      .get(`/api/stripe/oauth/callback?code=ac_test_good&state=${encodeURIComponent(state)}`)
      .set('X-Forwarded-For', '10.77.0.2');
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe('/admin/integrations?tab=0&stripe=connected');
    const shown = await admin.http.get('/api/admin/stripe', admin.token);
    expect(shown.body.data).toMatchObject({ connected: true, account_id: expect.stringMatching(/^acct_/) });

    // Every call now acts on the connected account.
    const user = await verifiedUser();
    await user.http.put('/api/payment-method', { payment_method_id: 'pm_card_visa' }, user.token);
    const requests = await control<Array<{ path: string; stripeAccount?: string | null; stripe_account?: string | null }>>('requests');
    const last = requests.filter((r) => r.path.startsWith('/v1/')).slice(-1)[0]!;
    expect(last.stripeAccount ?? last.stripe_account).toBe(shown.body.data.account_id);
    const integration = await user.http.get('/api/users/subscriptions/stripe-integration', user.token);
    expect(integration.body.data.account_id).toBe(shown.body.data.account_id);

    const off = await admin.http.post('/api/admin/stripe/disconnect', {}, admin.token);
    expect(off.body).toMatchObject({ success: true, message: 'Stripe account disconnected successfully' });
    expect(off.body.data.connected).toBe(false);
    expect((await admin.http.post('/api/admin/stripe/disconnect', {}, admin.token)).status).toBe(409);
  });

  it('forgets the account when Stripe reports the app deauthorized', async () => {
    const url = new URL((await admin.http.get('/api/admin/stripe/auth-url', admin.token)).body.data.url);
    await request(baseUrl())
      .get(`/api/stripe/oauth/callback?code=ac_test_deauth&state=${encodeURIComponent(url.searchParams.get('state')!)}`)
      .set('X-Forwarded-For', '10.77.0.3');
    const account = (await admin.http.get('/api/admin/stripe', admin.token)).body.data.account_id;
    expect(account).toMatch(/^acct_/);
    await control('deauthorize', { account });
    let connected = true;
    for (let i = 0; i < 100 && connected; i += 1) {
      connected = (await admin.http.get('/api/admin/stripe', admin.token)).body.data.connected;
      if (connected) await new Promise((r) => setTimeout(r, 100));
    }
    expect(connected).toBe(false);
  });
});
