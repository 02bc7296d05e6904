import type request from 'supertest';
import { addVideo, createFunnel, subscribedUser, freePlan } from './support/content';
import { apiToken, cmsOperatorJwt } from './support/cms';
import path from 'node:path';
import { registered } from '../security/registered-routes';
import { baseUrl, client } from './support/http';
import { runScript } from './support/run-script';
import { createPlan, currentSubscription } from './support/stripe';
import { verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

/**
 * The integrator API (/api/branchify/...): Strapi's generated REST API with Strapi API tokens made
 * through Strapi's own admin API, as an operator makes them in /cms. Self-managed subscriptions are
 * written here under the app's billing rules; everything else is read.
 */

const API = '/api/branchify';

const suite = useApiSuite();
let fullToken: string;
let readToken: string;
/** The /cms super admin's session, to make more tokens. */
let cmsJwt: string;
let selfA: { id: number };
let selfB: { id: number };
let platformFree: { id: number };
/** Every answer the integrator API gave, checked at the end for anything secret. */
const answers: string[] = [];

const http = client();
const seen = async (test: request.Test) => {
  const res = await test;
  answers.push(res.text);
  return res;
};
const get = (url: string, token?: string) => seen(http.get(`${API}${url}`, token));
const post = (url: string, body: object, token?: string) => seen(http.post(`${API}${url}`, body, token));
const put = (url: string, body: object, token?: string) => seen(http.put(`${API}${url}`, body, token));

const rowOf = (id: number) => suite.db('branchify_subscriptions').where({ id }).first();

/** A self-managed subscription made through the API for a new verified user. */
const selfManagedUser = async (planId: number, renewsAt: string | null = null) => {
  const user = await verifiedUser();
  const res = await post('/subscriptions', { data: { user_id: user.id, plan_id: planId, renews_at: renewsAt } }, fullToken);
  expect(res.status).toBe(201);
  return { user, sub: res.body.data as { id: number; documentId: string } };
};

beforeAll(async () => {
  cmsJwt = await cmsOperatorJwt('Ida');
  fullToken = await apiToken(cmsJwt, 'full-access');
  readToken = await apiToken(cmsJwt, 'read-only');

  selfA = await createPlan(suite.admin, { managed_by: 'self', price: '30.00' });
  selfB = await createPlan(suite.admin, { managed_by: 'self', price: '60.00' });
  platformFree = await freePlan(suite.admin);
});

describe('authentication', () => {
  it('serves its OpenAPI document publicly, naming every registered route with a stable operation id', async () => {
    const res = await client().get(`${API}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    // Every route registered under /api/branchify (but the document itself) is an operation of it.
    const routes = registered()
      .api.filter((key) => key.includes(' /api/branchify/') && !key.endsWith('/openapi.json'))
      .map((key) => {
        const [method, route] = key.split(' ') as [string, string];
        return `${method.toLowerCase()} ${route.replace('/api/branchify', '').replace(/:(\w+)/g, '{$1}')}`;
      });
    const documented = Object.entries(res.body.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual([...new Set(routes)].sort());
    const ids = Object.values(res.body.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((ops) =>
      Object.values(ops).map((o) => o.operationId),
    );
    expect(ids).toEqual(
      expect.arrayContaining(['listPlans', 'createSubscription', 'cancelSubscription', 'resumeSubscription', 'exportFunnel', 'importFunnel']),
    );
    expect(new Set(ids).size).toBe(ids.length);
    // The contact is the install's: its support address, or the app itself.
    expect(res.body.info.contact).toEqual({ name: expect.stringMatching(/ support$/), url: expect.stringMatching(/^https?:\/\//) });
  });

  it("passes Redocly's recommended ruleset with no error and no warning", async () => {
    const lint = await runScript(path.join(__dirname, '..', '..', 'scripts', 'lint-openapi.mjs'), [`${baseUrl()}${API}/openapi.json`]);
    const lines = lint.stdout.trim().split('\n');
    expect({ status: lint.status, stderr: lint.stderr, problems: lines.filter((l) => /^(warn|error) /.test(l)), last: lines.pop() }).toEqual({
      status: 0,
      stderr: '',
      problems: [],
      last: 'openapi lint: 0 errors, 0 warnings',
    });
  });

  it('refuses callers without an API token, and the app’s own access tokens', async () => {
    const creator = await verifiedUser();
    for (const token of [undefined, 'not-a-token', creator.token, suite.admin.token]) {
      for (const res of [
        await get('/funnels', token),
        await get('/users', token),
        await post('/subscriptions', { data: { user_id: creator.id, plan_id: selfA.id } }, token),
      ]) {
        expect({ status: res.status, error: res.body.error?.name }).toEqual({ status: 401, error: 'UnauthorizedError' });
      }
    }
    expect(await suite.db('branchify_subscriptions').where({ user_id: creator.id }).first()).toBeUndefined();
  });

  it('is not a key to the app: API tokens are refused on the app’s routes', async () => {
    for (const token of [fullToken, readToken]) {
      for (const url of ['/api/auth/user', '/api/admin/users', '/api/funnels']) {
        const res = await client().get(url, token);
        expect({ url, status: res.status, message: res.body.message }).toEqual({ url, status: 401, message: 'Unauthenticated.' });
      }
    }
  });
});

describe('rate limit', () => {
  // The suite runs with the default budget: 300 requests per API token per 60 s window.
  const BUDGET = 300;

  it('gives each API token its own budget per window, then answers 429 with Retry-After in Strapi’s error shape', async () => {
    const busy = await apiToken(cmsJwt, 'read-only');
    const quiet = await apiToken(cmsJwt, 'read-only');
    const statuses: number[] = [];
    for (let sent = 0; sent < BUDGET; sent += 25) {
      const batch = await Promise.all(Array.from({ length: 25 }, () => http.get(`${API}/plans?pagination[pageSize]=1`, busy)));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(BUDGET);

    const over = await get('/plans?pagination[pageSize]=1', busy);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      data: null,
      error: { status: 429, name: 'RateLimitError', message: 'Too many attempts. Please wait a minute and try again.', details: {} },
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);

    // Another token, from the same address, is not held back.
    expect((await get('/plans?pagination[pageSize]=1', quiet)).status).toBe(200);
  });
});

describe('a read-only token', () => {
  it('reads funnels, videos, plans and users’ public fields', async () => {
    const creator = await subscribedUser(suite.admin, platformFree.id);
    const video = await addVideo(creator, { title: 'Integrator video' });
    const funnel = await createFunnel(creator, { title: 'Integrator funnel' });

    const funnels = await get(`/funnels?filters[identifier][$eq]=${funnel.identifier}`, readToken);
    expect(funnels.status).toBe(200);
    expect(funnels.body.data).toHaveLength(1);
    expect(funnels.body.data[0]).toMatchObject({ id: funnel.id, owner_id: creator.id, title: 'Integrator funnel', identifier: funnel.identifier });
    expect(funnels.body.meta.pagination).toMatchObject({ total: 1 });
    const oneFunnel = await get(`/funnels/${funnels.body.data[0].documentId}`, readToken);
    expect(oneFunnel.status).toBe(200);
    expect(oneFunnel.body.data).toMatchObject({ id: funnel.id, title: 'Integrator funnel' });

    const videos = await get(`/videos?filters[owner_id][$eq]=${creator.id}`, readToken);
    expect(videos.status).toBe(200);
    expect(videos.body.data.map((v: { id: number }) => v.id)).toEqual([video.id]);
    const oneVideo = await get(`/videos/${videos.body.data[0].documentId}`, readToken);
    expect(oneVideo.body.data).toMatchObject({ id: video.id, title: 'Integrator video', provider: 'youtube' });

    const plans = await get(`/plans?filters[id][$eq]=${selfA.id}`, readToken);
    expect(plans.body.data[0]).toMatchObject({ id: selfA.id, managed_by: 'self', price: '30.00' });
    expect(plans.body.data[0]).not.toHaveProperty('stripe_price_id');

    const users = await get(`/users?filters[email][$eq]=${encodeURIComponent(creator.email)}`, readToken);
    expect(users.status).toBe(200);
    expect(users.body.data).toHaveLength(1);
    const user = users.body.data[0];
    expect(Object.keys(user).sort()).toEqual(
      ['id', 'documentId', 'first_name', 'last_name', 'email', 'status', 'is_admin', 'email_verified_at', 'subscription_id', 'createdAt', 'updatedAt'].sort(),
    );
    expect(user).toMatchObject({ id: creator.id, email: creator.email, status: 'active', is_admin: false });
    const oneUser = await get(`/users/${user.documentId}`, readToken);
    expect(oneUser.body.data).toEqual(user);
    // A private attribute cannot be probed through a filter either.
    const probe = await http.get(`${API}/users?filters[password][$startsWith]=$2`, readToken);
    expect(probe.status === 400 || (probe.status === 200 && probe.body.meta.pagination.total > 1)).toBe(true);
  });

  it('cannot write: every subscription action is 403 and changes nothing', async () => {
    const { user, sub } = await selfManagedUser(selfA.id);
    const before = await rowOf(sub.id);
    const other = await verifiedUser();
    const attempts = [
      await post('/subscriptions', { data: { user_id: other.id, plan_id: selfA.id } }, readToken),
      await put(`/subscriptions/${sub.documentId}`, { data: { plan_id: selfB.id } }, readToken),
      await put(`/subscriptions/${sub.documentId}`, { data: { status: 'canceled' } }, readToken),
      await post(`/subscriptions/${sub.documentId}/cancel`, {}, readToken),
      await post(`/subscriptions/${sub.documentId}/resume`, {}, readToken),
    ];
    for (const res of attempts) expect({ status: res.status, error: res.body.error?.name }).toEqual({ status: 403, error: 'ForbiddenError' });
    expect(await rowOf(sub.id)).toEqual(before);
    expect(await suite.db('branchify_subscriptions').where({ user_id: other.id }).first()).toBeUndefined();
    expect((await get(`/subscriptions/${sub.documentId}`, readToken)).body.data).toMatchObject({ id: sub.id, user_id: user.id, status: 'active' });
  });
});

describe('self-managed subscriptions with a full-access token', () => {
  it('creates one, active at once, that the user sees in the app', async () => {
    const renews = new Date(Date.now() + 20 * 86_400_000).toISOString();
    const { user, sub } = await selfManagedUser(selfA.id, renews);
    expect(sub).toMatchObject({ user_id: user.id, plan_id: selfA.id, status: 'active', managed_by: 'self', renews_at: renews, canceled_at: null });
    expect(sub).not.toHaveProperty('stripe_subscription_id');
    expect(sub).not.toHaveProperty('stripe_customer_id');
    expect(await currentSubscription(user)).toMatchObject({ id: sub.id, status: 'active', managed_by: 'self', plan_id: selfA.id });
    // The app leaves it to the API.
    const cancelInApp = await user.http.post(`/api/users/subscriptions/${sub.id}/cancel`, { period: 'immediately' }, user.token);
    expect(cancelInApp.status).toBe(409);
  });

  it('refuses platform plans, admins, unknown users, bad data and a second subscription', async () => {
    const user = await verifiedUser();
    const refusals = [
      [
        await post('/subscriptions', { data: { user_id: user.id, plan_id: platformFree.id } }, fullToken),
        422,
        /^Platform-managed plans are paid through the app/,
      ],
      [
        await post('/subscriptions', { data: { user_id: suite.admin.id, plan_id: selfA.id } }, fullToken),
        422,
        /^Admin accounts don't support subscriptions\.$/,
      ],
      [await post('/subscriptions', { data: { user_id: 999_999_999, plan_id: selfA.id } }, fullToken), 422, /^The selected user does not exist\.$/],
      [await post('/subscriptions', { data: { user_id: user.id, plan_id: 999_999_999 } }, fullToken), 422, /^The selected plan is not available\.$/],
      [await post('/subscriptions', { data: { user_id: user.id, plan_id: selfA.id, renews_at: 'soon' } }, fullToken), 422, /ISO 8601/],
      [await post('/subscriptions', { user_id: user.id, plan_id: selfA.id }, fullToken), 422, /Missing "data" payload/],
    ] as const;
    for (const [res, status, message] of refusals) {
      expect({ status: res.status, name: res.body.error?.name }).toEqual({ status, name: 'ValidationError' });
      expect(res.body.error.message).toMatch(message);
    }
    expect(await suite.db('branchify_subscriptions').where({ user_id: user.id }).first()).toBeUndefined();

    const { user: subscribed } = await selfManagedUser(selfA.id);
    const twice = await post('/subscriptions', { data: { user_id: subscribed.id, plan_id: selfB.id } }, fullToken);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ name: 'ConflictError', message: 'This user already has a subscription. Change their plan instead.' });

    const onPlatform = await subscribedUser(suite.admin, platformFree.id);
    const over = await post('/subscriptions', { data: { user_id: onPlatform.id, plan_id: selfA.id } }, fullToken);
    expect(over.status).toBe(409);
    expect(await currentSubscription(onPlatform)).toMatchObject({ managed_by: 'platform', status: 'active' });
  });

  it('changes the plan (and period) of an active one, refusing the same plan, platform plans and canceled ones', async () => {
    const { user, sub } = await selfManagedUser(selfA.id);
    const renews = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const changed = await put(`/subscriptions/${sub.documentId}`, { data: { plan_id: selfB.id, renews_at: renews } }, fullToken);
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: sub.id, plan_id: selfB.id, status: 'active', renews_at: renews });
    expect(await currentSubscription(user)).toMatchObject({ id: sub.id, plan_id: selfB.id });

    const same = await put(`/subscriptions/${sub.documentId}`, { data: { plan_id: selfB.id } }, fullToken);
    expect([same.status, same.body.error.message]).toEqual([422, 'The new plan must be different from the current plan.']);
    const platform = await put(`/subscriptions/${sub.documentId}`, { data: { plan_id: platformFree.id } }, fullToken);
    expect(platform.status).toBe(422);
    expect(platform.body.error.details.errors.plan_id[0]).toMatch(/^Platform-managed plans are paid through the app/);
    const both = await put(`/subscriptions/${sub.documentId}`, { data: { plan_id: selfA.id, status: 'canceled' } }, fullToken);
    expect([both.status, both.body.error.message]).toEqual([422, 'Send one change: a plan_id, a status (active or canceled), or a renews_at.']);

    const later = new Date(Date.now() + 60 * 86_400_000).toISOString();
    const moved = await put(`/subscriptions/${sub.documentId}`, { data: { renews_at: later } }, fullToken);
    expect(moved.body.data).toMatchObject({ plan_id: selfB.id, renews_at: later, status: 'active' });

    expect((await post(`/subscriptions/${sub.documentId}/cancel`, { data: { period: 'immediately' } }, fullToken)).status).toBe(200);
    const whileCanceled = await put(`/subscriptions/${sub.documentId}`, { data: { plan_id: selfA.id } }, fullToken);
    expect([whileCanceled.status, whileCanceled.body.error.message]).toEqual([409, 'This subscription is canceled. Resume it before changing it.']);
    expect((await rowOf(sub.id)).plan_id).toBe(selfB.id);
  });

  it('cancels at the end of the period the integrator set, or immediately; then only once', async () => {
    const renews = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const { user, sub } = await selfManagedUser(selfA.id, renews);
    const cancelled = await post(`/subscriptions/${sub.documentId}/cancel`, { data: { cancellation_reason: 'Stopped paying us' } }, fullToken);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'canceled', canceled_at: renews, cancel_at_period_end: true, canceled_by: 'integration' });
    // Access lasts until the period ends.
    expect(await currentSubscription(user)).toMatchObject({ id: sub.id, status: 'canceled', canceled_at: renews });
    const again = await post(`/subscriptions/${sub.documentId}/cancel`, {}, fullToken);
    expect([again.status, again.body.error.message]).toEqual([409, "This user doesn't have an active subscription to cancel."]);

    const { sub: now } = await selfManagedUser(selfA.id, renews);
    const before = Date.now();
    const viaPut = await put(`/subscriptions/${now.documentId}`, { data: { status: 'canceled', period: 'immediately' } }, fullToken);
    expect(viaPut.status).toBe(200);
    expect(viaPut.body.data).toMatchObject({ status: 'canceled', cancel_at_period_end: false });
    expect(new Date(viaPut.body.data.canceled_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(viaPut.body.data.canceled_at).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('resumes what an integrator cancelled, and only the user’s current canceled one', async () => {
    const { user, sub } = await selfManagedUser(selfA.id);
    const active = await post(`/subscriptions/${sub.documentId}/resume`, {}, fullToken);
    expect([active.status, active.body.error.message]).toEqual([409, 'Only canceled subscriptions can be resumed.']);

    await post(`/subscriptions/${sub.documentId}/cancel`, { data: { period: 'immediately' } }, fullToken);
    const resumed = await post(`/subscriptions/${sub.documentId}/resume`, {}, fullToken);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ id: sub.id, status: 'active', canceled_at: null, canceled_by: null });
    expect(await currentSubscription(user)).toMatchObject({ id: sub.id, status: 'active' });

    await put(`/subscriptions/${sub.documentId}`, { data: { status: 'canceled', period: 'immediately' } }, fullToken);
    const viaPut = await put(`/subscriptions/${sub.documentId}`, { data: { status: 'active' } }, fullToken);
    expect(viaPut.body.data).toMatchObject({ status: 'active' });

    // A canceled subscription replaced by a newer one is no longer the user's current one.
    await post(`/subscriptions/${sub.documentId}/cancel`, { data: { period: 'immediately' } }, fullToken);
    const replacement = await post('/subscriptions', { data: { user_id: user.id, plan_id: selfB.id } }, fullToken);
    expect(replacement.status).toBe(201);
    const old = await post(`/subscriptions/${sub.documentId}/resume`, {}, fullToken);
    expect([old.status, old.body.error.message]).toEqual([409, "Only the user's current subscription can be resumed."]);
    expect(await currentSubscription(user)).toMatchObject({ id: replacement.body.data.id, plan_id: selfB.id, status: 'active' });
  });

  it('leaves platform-managed subscriptions to the app', async () => {
    const creator = await subscribedUser(suite.admin, platformFree.id);
    const row = await suite.db('branchify_subscriptions').where({ user_id: creator.id }).first();
    const before = await rowOf(row.id);
    const change = await put(`/subscriptions/${row.document_id}`, { data: { plan_id: selfA.id } }, fullToken);
    expect([change.status, change.body.error.message]).toEqual([
      422,
      'Only self-managed subscriptions can be changed through the API. Platform-managed subscriptions are changed in the app.',
    ]);
    const cancel = await post(`/subscriptions/${row.document_id}/cancel`, {}, fullToken);
    expect([cancel.status, cancel.body.error.message]).toEqual([
      409,
      'Only self-managed subscriptions can be cancelled through the API. Platform-managed subscriptions are cancelled in the app.',
    ]);
    const resume = await post(`/subscriptions/${row.document_id}/resume`, {}, fullToken);
    expect([resume.status, resume.body.error.message]).toEqual([
      409,
      'Only self-managed subscriptions can be resumed through the API. Platform-managed subscriptions are resumed in the app.',
    ]);
    expect(await rowOf(row.id)).toEqual(before);
    const missing = await post('/subscriptions/nosuchdocument0000000000/cancel', {}, fullToken);
    expect(missing.status).toBe(404);
  });
});

describe('relations', () => {
  it("populates a subscription's plan and filters on it; a user is neither populated nor filtered on", async () => {
    const { user, sub } = await selfManagedUser(selfA.id);
    const one = await get(`/subscriptions/${sub.documentId}?populate=plan`, readToken);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: sub.id, plan_id: selfA.id, plan: { id: selfA.id, managed_by: 'self', price: '30.00' } });
    expect(one.body.data.plan).not.toHaveProperty('stripe_price_id');
    expect(one.body.data).not.toHaveProperty('user');

    const byPlan = await get(`/subscriptions?filters[plan][managed_by][$eq]=self&filters[user_id][$eq]=${user.id}&populate[plan][fields][0]=name`, readToken);
    expect(byPlan.status).toBe(200);
    expect(byPlan.body.data.map((s: { id: number }) => s.id)).toEqual([sub.id]);
    expect(Object.keys(byPlan.body.data[0].plan).sort()).toEqual(['documentId', 'id', 'name']);
    const otherPlan = await get(`/subscriptions?filters[plan][id][$eq]=${selfB.id}&filters[user_id][$eq]=${user.id}`, readToken);
    expect(otherPlan.body.data).toEqual([]);

    const creator = await subscribedUser(suite.admin, platformFree.id);
    await createFunnel(creator, { title: 'Relations funnel' });
    await addVideo(creator, { title: 'Relations video' });
    // Asked by name, a user relation is refused; the wildcard leaves it out.
    for (const url of [
      `/subscriptions/${sub.documentId}?populate=user`,
      `/funnels?filters[owner_id][$eq]=${creator.id}&populate=owner`,
      `/videos?filters[owner_id][$eq]=${creator.id}&populate[owner][fields][0]=email`,
      `/funnels?filters[owner][email][$eq]=${encodeURIComponent(creator.email)}`,
    ]) {
      const res = await get(url, fullToken);
      expect({ url, status: res.status, error: res.body.error?.name }).toEqual({ url, status: 400, error: 'ValidationError' });
    }
    const wildcard = await get(`/subscriptions/${sub.documentId}?populate=*`, fullToken);
    expect(wildcard.status).toBe(200);
    expect(wildcard.body.data.plan).toMatchObject({ id: selfA.id });
    expect(wildcard.body.data).not.toHaveProperty('user');
    for (const url of [`/funnels?filters[owner_id][$eq]=${creator.id}&populate=*`, `/videos?filters[owner_id][$eq]=${creator.id}&populate=*`]) {
      const res = await get(url, fullToken);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).not.toHaveProperty('owner');
    }
  });
});

describe('secrets', () => {
  it('never appear in any answer of the API', async () => {
    // Lists without filters too: every user, plan and subscription the run has made so far.
    for (const url of [
      '/users?pagination[pageSize]=100',
      '/plans?pagination[pageSize]=100',
      '/subscriptions?pagination[pageSize]=100',
      '/funnels',
      '/videos',
    ]) {
      expect((await get(url, fullToken)).status).toBe(200);
    }
    const leaks = answers.flatMap((text) => text.match(/password|token_version|stripe_|resetPasswordToken|confirmationToken|\$2[aby]\$|accessKey/gi) ?? []);
    expect(leaks).toEqual([]);
    expect(answers.some((text) => text.includes(fullToken) || text.includes(readToken))).toBe(false);
  });
});
