// @serial: changes Stripe keys and connection for the whole install (tests/harness/groups.js)
import request from 'supertest';
import { baseUrl, client, newIp } from './support/http';
import { configureStripe, control, STRIPE_TEST_KEYS } from './support/stripe';
import { login, PASSWORD, uniqueEmail, verifiedUser, type Session } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

beforeAll(async () => {
  await configureStripe(suite.admin);
});
/** Another administrator, made by the first. */
const createAdmin = async () => {
  const email = uniqueEmail('admin');
  const res = await suite.admin.http.post(
    '/api/admin/users',
    { first_name: 'Other', last_name: 'Admin', email, password: PASSWORD, password_confirmation: PASSWORD, is_admin: true },
    suite.admin.token,
  );
  expect(res.status).toBe(201);
  return { id: res.body.data.id as number, email };
};

afterAll(async () => {
  // Leave no connected account behind for the other suites.
  await suite.admin.http.post('/api/admin/stripe/disconnect', {}, suite.admin.token);
});

describe('card provider configuration', () => {
  it("saves credentials encrypted and never echoes the secret: 'Stripe Credentials updated successfully'", async () => {
    const res = await suite.admin.http.put('/api/admin/stripe/config', { ...STRIPE_TEST_KEYS, redirect_url: 'https://evil.example/cb' }, suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Stripe Credentials updated successfully' });
    const config = await suite.admin.http.get('/api/admin/stripe/config', suite.admin.token);
    expect(config.body.data).toEqual({
      client_id: STRIPE_TEST_KEYS.client_id,
      secret: `sk_test_****${STRIPE_TEST_KEYS.secret.slice(-4)}`,
      publishable_key: STRIPE_TEST_KEYS.publishable_key,
      webhook_secret: `whsec_test_****${STRIPE_TEST_KEYS.webhook_secret.slice(-4)}`,
      redirect_url: 'http://localhost:1337/api/stripe/oauth/callback',
      webhook_url: 'http://localhost:1337/api/stripe/webhook',
      webhook_events: expect.arrayContaining(['customer.subscription.updated', 'invoice.paid', 'charge.refunded']),
      has_secret: true,
      has_webhook_secret: true,
      configured: true,
      // Stripe accepted the keys when they were saved.
      ready: true,
      problem: null,
    });
    expect(JSON.stringify(config.body)).not.toContain(STRIPE_TEST_KEYS.secret);
    const row = await suite.db('branchify_stripe_settings').first();
    expect(row.secret_encrypted).not.toContain(STRIPE_TEST_KEYS.secret);
    expect(row.webhook_secret_encrypted).not.toContain(STRIPE_TEST_KEYS.webhook_secret);
  });

  it('validates key prefixes', async () => {
    const res = await suite.admin.http.put('/api/admin/stripe/config', { client_id: 'x', secret: 'pk_wrong', publishable_key: 'sk_wrong' }, suite.admin.token);
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

/** Starts a Connect round trip as `who`: the state Stripe carries back, and the cookie set on that admin's browser. */
const startConnect = async (who: Session) => {
  const res = await who.http.get('/api/admin/stripe/auth-url', who.token);
  expect(res.status).toBe(200);
  const url = new URL(res.body.data.url);
  const set = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  const raw = set.find((c) => c.startsWith('branchify_stripe_connect='));
  return { url, state: url.searchParams.get('state')!, cookie: raw?.split(';')[0], raw };
};

/** Stripe sending a browser back: the state and code in the query, the browser's own cookies, no bearer token. */
const comeBack = (query: string, cookie?: string) => {
  const req = request(baseUrl()).get(`/api/stripe/oauth/callback?${query}`).set('X-Forwarded-For', newIp());
  return cookie ? req.set('Cookie', cookie) : req;
};
const callback = (state: string, code: string, cookie?: string) => comeBack(`code=${code}&state=${encodeURIComponent(state)}`, cookie);
const connectedAccount = async (): Promise<string | null> => (await suite.admin.http.get('/api/admin/stripe', suite.admin.token)).body.data.account_id;
const disconnect = () => suite.admin.http.post('/api/admin/stripe/disconnect', {}, suite.admin.token);

describe('Stripe Connect', () => {
  it('builds the OAuth URL with a state bound to this browser and connects through the callback', async () => {
    const { url, state, cookie, raw } = await startConnect(suite.admin);
    expect(url.pathname).toMatch(/oauth\/authorize$/);
    expect(url.searchParams.get('client_id')).toBe(STRIPE_TEST_KEYS.client_id);
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:1337/api/stripe/oauth/callback');
    expect(state).toMatch(/^[\w-]{43}$/);
    // Only the callback gets the cookie, never a script.
    expect(raw).toMatch(/; path=\/api\/stripe\/oauth/);
    expect(raw).toMatch(/; samesite=lax/i);
    expect(raw).toMatch(/; httponly/i);

    const forged = await callback(`${state.slice(0, -4)}AAAA`, 'ac_test', cookie);
    expect(forged.status).toBe(302);
    expect(forged.headers.location).toMatch(/stripe=invalid-state/);
    expect((await suite.admin.http.get('/api/admin/stripe', suite.admin.token)).body.data.connected).toBe(false);

    const ok = await callback(state, 'ac_test_good', cookie);
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe('/admin/integrations?tab=0&stripe=connected');
    const shown = await suite.admin.http.get('/api/admin/stripe', suite.admin.token);
    expect(shown.body.data).toMatchObject({ connected: true, account_id: expect.stringMatching(/^acct_/) });

    // Every call now acts on the connected account.
    const user = await verifiedUser();
    await user.http.put('/api/payment-method', { payment_method_id: 'pm_card_visa' }, user.token);
    const requests = await control<Array<{ path: string; stripeAccount?: string | null; stripe_account?: string | null }>>('requests');
    const last = requests.filter((r) => r.path.startsWith('/v1/')).slice(-1)[0]!;
    expect(last.stripeAccount ?? last.stripe_account).toBe(shown.body.data.account_id);
    const integration = await user.http.get('/api/users/subscriptions/stripe-integration', user.token);
    expect(integration.body.data.account_id).toBe(shown.body.data.account_id);

    const off = await disconnect();
    expect(off.body).toMatchObject({ success: true, message: 'Stripe account disconnected successfully' });
    expect(off.body.data.connected).toBe(false);
    expect((await disconnect()).status).toBe(409);
  });

  it('uses a state once: the same state again, even from the same browser, connects nothing', async () => {
    const { state, cookie } = await startConnect(suite.admin);
    expect((await callback(state, 'ac_test_once', cookie)).headers.location).toMatch(/stripe=connected/);
    const account = await connectedAccount();
    expect(account).toMatch(/^acct_/);

    // Someone who saw the address (a log, a referrer) brings their own account's code with it.
    for (const code of ['ac_test_replayed', 'ac_test_once']) {
      const again = await callback(state, code, cookie);
      expect(again.headers.location).toMatch(/stripe=invalid-state/);
    }
    expect(await connectedAccount()).toBe(account);
    await disconnect();

    // Two callbacks racing with one state: one connects, the other is refused.
    const raced = await startConnect(suite.admin);
    const both = await Promise.all([callback(raced.state, 'ac_test_race_a', raced.cookie), callback(raced.state, 'ac_test_race_b', raced.cookie)]);
    expect(both.map((r) => r.headers.location.match(/stripe=([\w-]+)/)![1]).sort()).toEqual(['connected', 'invalid-state']);
    await disconnect();
  });

  it("works only in the browser of the admin who started it: another admin's browser, or none, connects nothing", async () => {
    const other = await login((await createAdmin()).email, PASSWORD);
    const mine = await startConnect(suite.admin);
    const theirs = await startConnect(other);

    expect((await callback(mine.state, 'ac_test_cross', theirs.cookie)).headers.location).toMatch(/stripe=invalid-state/);
    const fresh = await startConnect(suite.admin);
    expect((await callback(fresh.state, 'ac_test_nocookie')).headers.location).toMatch(/stripe=invalid-state/);
    expect(await connectedAccount()).toBeNull();
    // Each refused state is used up: its own browser cannot finish it afterwards either.
    expect((await callback(fresh.state, 'ac_test_late', mine.cookie)).headers.location).toMatch(/stripe=invalid-state/);
    expect(await connectedAccount()).toBeNull();

    // The other admin's own round trip, in their own browser, works.
    expect((await callback(theirs.state, 'ac_test_theirs', theirs.cookie)).headers.location).toMatch(/stripe=connected/);
    await disconnect();
  });

  it('dies with the session that started it (signed out) and when it expires', async () => {
    const other = await login((await createAdmin()).email, PASSWORD);
    const started = await startConnect(other);
    const out = await other.http.post('/api/auth/logout', {}, other.token).set('Cookie', other.cookie!);
    expect(out.status).toBe(200);
    expect((await callback(started.state, 'ac_test_signed_out', started.cookie)).headers.location).toMatch(/stripe=invalid-state/);

    const late = await startConnect(suite.admin);
    await suite.db('branchify_stripe_connect_states').update({ expires_at: new Date(Date.now() - 1000) });
    expect((await callback(late.state, 'ac_test_expired', late.cookie)).headers.location).toMatch(/stripe=invalid-state/);
    expect(await connectedAccount()).toBeNull();
    // A denial at Stripe is reported as one (and uses the state up).
    const denied = await startConnect(suite.admin);
    expect((await comeBack(`error=access_denied&state=${encodeURIComponent(denied.state)}`, denied.cookie)).headers.location).toMatch(/stripe=denied/);
    expect((await callback(denied.state, 'ac_test_after_denial', denied.cookie)).headers.location).toMatch(/stripe=invalid-state/);
    expect(await connectedAccount()).toBeNull();
  });

  it('forgets the account when Stripe reports the app deauthorized', async () => {
    const { state, cookie } = await startConnect(suite.admin);
    await callback(state, 'ac_test_deauth', cookie);
    const account = (await suite.admin.http.get('/api/admin/stripe', suite.admin.token)).body.data.account_id;
    expect(account).toMatch(/^acct_/);
    await control('deauthorize', { account });
    let connected = true;
    for (let i = 0; i < 100 && connected; i += 1) {
      connected = (await suite.admin.http.get('/api/admin/stripe', suite.admin.token)).body.data.connected;
      if (connected) await new Promise((r) => setTimeout(r, 100));
    }
    expect(connected).toBe(false);
  });
});
