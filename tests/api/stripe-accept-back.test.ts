// @serial: changes Stripe keys for the whole install (tests/harness/groups.js)
import { configureStripe, STRIPE_TEST_KEYS } from './support/stripe';
import { useApiSuite } from './support/suite';

/**
 * PUT admin/stripe/config takes back what GET admin/stripe/config served: the secrets come masked
 * (their kind and last four characters) and the mask means "keep the saved one"; redirect_url and
 * the flags are read-only and ignored.
 */
const suite = useApiSuite();

const served = async () => (await suite.admin.http.get('/api/admin/stripe/config', suite.admin.token)).body.data;
const put = (body: object) => suite.admin.http.put('/api/admin/stripe/config', body, suite.admin.token);
const stored = () => suite.db('branchify_stripe_settings').first();
const withoutTimestamps = (row: Record<string, unknown>) => ({ ...row, updated_at: null, updatedAt: null });

beforeAll(async () => {
  await configureStripe(suite.admin);
});
afterAll(async () => {
  await configureStripe(suite.admin);
});

describe('PUT admin/stripe/config takes back what GET served', () => {
  it('serves the secrets masked, never in full', async () => {
    const view = await served();
    expect(view.secret).toBe(`sk_test_****${STRIPE_TEST_KEYS.secret.slice(-4)}`);
    expect(view.webhook_secret).toBe(`whsec_test_****${STRIPE_TEST_KEYS.webhook_secret.slice(-4)}`);
    expect(JSON.stringify(view)).not.toContain(STRIPE_TEST_KEYS.secret);
    expect(JSON.stringify(view)).not.toContain(STRIPE_TEST_KEYS.webhook_secret);
  });

  it('the record as served: 200 and the stored credentials unchanged', async () => {
    const before = await served();
    const rowBefore = await stored();
    const res = await put(before);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Stripe Credentials updated successfully');
    expect(await served()).toEqual(before);
    const row = await stored();
    expect(row.secret_encrypted).toBe(rowBefore.secret_encrypted);
    expect(row.webhook_secret_encrypted).toBe(rowBefore.webhook_secret_encrypted);
    expect(withoutTimestamps(row)).toEqual(withoutTimestamps(rowBefore));
    // The saved secret still works against Stripe: the Connect URL is built with it.
    expect((await suite.admin.http.get('/api/admin/stripe/auth-url', suite.admin.token)).status).toBe(200);
  });

  it('a tampered redirect_url and flags are ignored', async () => {
    const before = await served();
    const rowBefore = await stored();
    const res = await put({ ...before, redirect_url: 'https://evil.example/callback', configured: false, has_secret: false });
    expect(res.status).toBe(200);
    expect(await served()).toEqual(before);
    expect(withoutTimestamps(await stored())).toEqual(withoutTimestamps(rowBefore));
  });

  it('an edited mask is refused (422 on the field), nothing stored', async () => {
    const before = await served();
    const rowBefore = await stored();
    const res = await put({ ...before, secret: 'sk_test_****9999', webhook_secret: 'whsec_****abcd' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['secret', 'webhook_secret']);
    expect(res.body.errors.secret[0]).toMatch(/masked/);
    expect(withoutTimestamps(await stored())).toEqual(withoutTimestamps(rowBefore));
  });

  it('a new secret replaces the saved one; the record then serves its mask', async () => {
    const before = await served();
    const res = await put({ ...before, secret: 'sk_test_another_suite_key_0042' });
    expect(res.status).toBe(200);
    expect((await served()).secret).toBe('sk_test_****0042');
    await configureStripe(suite.admin);
  });
});
