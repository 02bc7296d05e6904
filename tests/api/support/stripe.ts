import { baseUrl } from './http';
import type { Session } from './users';

export const STRIPE_TEST_KEYS = {
  secret: 'sk_test_branchify_suite',
  publishable_key: 'pk_test_branchify_suite',
  client_id: 'ca_test_branchify_suite',
  webhook_secret: 'whsec_test_branchify_suite',
};

/** Test cards the Stripe-compatible server knows (Stripe's own test payment methods). */
export const CARDS = {
  visa: 'pm_card_visa',
  declined: 'pm_card_chargeDeclined',
  threeDSecure: 'pm_card_threeDSecure2Required',
};

export const fakeUrl = (): string => {
  const url = process.env.BRANCHIFY_STRIPE_FAKE_URL;
  if (!url) throw new Error('BRANCHIFY_STRIPE_FAKE_URL is not set (tests/harness/global-setup.js starts the Stripe test server)');
  return url;
};

/** Calls the Stripe test server's control API (decline next, fail, hang, advance, webhooks…). */
export const control = async <T = unknown>(path: string, body?: unknown): Promise<T> => {
  const res = await fetch(`${fakeUrl()}/_control/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`control ${path} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

/** Saves the suite's Stripe credentials as an admin would and points webhooks at the app. */
export const configureStripe = async (admin: Session): Promise<void> => {
  const res = await admin.http.put('/api/admin/stripe/config', STRIPE_TEST_KEYS, admin.token);
  if (res.status !== 200) throw new Error(`stripe config failed: ${res.status} ${JSON.stringify(res.body)}`);
  await control('webhooks', { url: `${baseUrl()}/api/stripe/webhook`, secret: STRIPE_TEST_KEYS.webhook_secret });
  await control('webhooks/resume', {});
};

let planSeq = 0;
export const createPlan = async (admin: Session, overrides: Record<string, unknown> = {}) => {
  planSeq += 1;
  const res = await admin.http.post(
    '/api/admin/plans',
    {
      name: `Suite plan ${planSeq}-${Math.random().toString(36).slice(2, 6)}`,
      price: '19.00',
      currency: 'usd',
      payment_schedule: 'monthly',
      managed_by: 'platform',
      max_funnel: null,
      max_branch_per_funnel: null,
      video_sources: null,
      ...overrides,
    },
    admin.token,
  );
  if (res.status !== 201) throw new Error(`plan create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; name: string; price: string; payment_schedule: string };
};

/** Polls until `check` holds (webhooks arrive asynchronously, as from Stripe); bounded, not timed. */
export { eventually } from './poll';

export const currentSubscription = async (session: Session) => (await session.http.get('/api/users/subscriptions', session.token)).body.data;
