// @serial: changes Stripe keys; calls every admin route for the whole install (tests/harness/groups.js)
import { randomUUID } from 'node:crypto';
import { MESSAGES } from '@branchify/shared';
import { client, type Client } from '../api/support/http';
import { addVideo, createFunnel } from '../api/support/content';
import { CARDS, configureStripe, control, createPlan, eventually } from '../api/support/stripe';
import { PASSWORD, registerUser, verifiedUser, type Session } from '../api/support/users';
import { registered } from './registered-routes';
import { ROUTE_TABLE, type RouteRow } from './route-table';
import { record } from './summary';
import { useApiSuite } from '../api/support/suite';

type Role =
  | 'anonymous'
  | 'unverified'
  | 'suspended'
  | 'active'
  | 'pending'
  | 'payment_required'
  | 'failed_renewal'
  | 'canceled-grace'
  | 'canceled-past'
  | 'no-subscription'
  | 'other-creator'
  | 'admin';

const ROLES: Role[] = [
  'anonymous',
  'unverified',
  'suspended',
  'active',
  'pending',
  'payment_required',
  'failed_renewal',
  'canceled-grace',
  'canceled-past',
  'no-subscription',
  'other-creator',
  'admin',
];
/** The creator whose funnel, video and subscription every tenant-object cell asks for. */
const OWNER: Role = 'active';
const MISSING_ID = '999999';

const suite = useApiSuite();
const sessions = new Map<Role, { http: Client; token?: string; session?: Session }>();
const owned = { funnel: '', video: '', subscription: '', reference: '', user: '', plan: '' };
/** Strings only the owner's data contains: no other tenant may ever receive one. */
let ownerMarkers: string[] = [];
/** Objects of other tenants that a body can name (the other creator's funnel, an unpaid invoice). */
const foreign = { otherFunnel: 0, otherSubscription: 0, ownerVideo: 0, unpaidInvoice: { id: 0, invoice_id: '' } };

const subscriptionOf = async (userId: number) => suite.db('branchify_subscriptions').where({ user_id: userId }).orderBy('id', 'desc').first();

beforeAll(async () => {
  await configureStripe(suite.admin);
  const free = await createPlan(suite.admin, { price: '0', payment_schedule: 'free' });
  const monthly = await createPlan(suite.admin, { price: '5.00', payment_schedule: 'monthly' });
  const subscribe = (user: Session, planId: number, card?: string) =>
    user.http.post('/api/users/subscriptions', { plan_id: planId, ...(card ? { payment_method_id: card } : {}) }, user.token);

  const owner = await verifiedUser();
  expect((await subscribe(owner, free.id)).status).toBe(201);
  const marker = randomUUID();
  const video = await addVideo(owner, { title: `Owner video ${marker}` });
  const funnel = await createFunnel(owner, { title: `Owner funnel ${marker}`, description: `Owner notes ${marker}` });
  Object.assign(owned, {
    funnel: String(funnel.id),
    video: String(video.id),
    subscription: String((await subscriptionOf(owner.id)).id),
    reference: funnel.identifier,
    user: String(owner.id),
    plan: String(free.id),
  });
  ownerMarkers = [owner.email, funnel.identifier, marker];

  const other = await verifiedUser();
  expect((await subscribe(other, free.id)).status).toBe(201);
  foreign.otherFunnel = (await createFunnel(other)).id;
  foreign.otherSubscription = (await subscriptionOf(other.id)).id;
  foreign.ownerVideo = video.id;
  const unverified = await registerUser();
  const suspended = await verifiedUser();
  // Its token was issued before the suspension; it must be dead from now on.
  const suspension = await suite.admin.http.put(`/api/admin/users/${suspended.id}`, { status: 'suspended', status_note: 'Matrix' }, suite.admin.token);
  expect(suspension.status).toBe(200);
  const none = await verifiedUser();

  const pending = await verifiedUser();
  expect((await subscribe(pending, monthly.id, CARDS.threeDSecure)).status).toBe(202);
  const unpaid = await verifiedUser();
  expect((await subscribe(unpaid, monthly.id, CARDS.declined)).status).toBe(402);
  const renewalFailed = await verifiedUser();
  expect((await subscribe(renewalFailed, monthly.id, CARDS.visa)).status).toBe(201);
  await control('advance', { subscription: (await subscriptionOf(renewalFailed.id)).stripe_subscription_id, outcome: 'declined' });
  const grace = await verifiedUser();
  const graceSub = (await subscribe(grace, monthly.id, CARDS.visa)).body.data;
  expect((await grace.http.post(`/api/users/subscriptions/${graceSub.id}/cancel`, { period: 'cancel_at_period_end' }, grace.token)).status).toBe(200);
  const ended = await verifiedUser();
  const endedSub = (await subscribe(ended, free.id)).body.data;
  const ending = await suite.admin.http.post(
    `/api/admin/subscriptions/${endedSub.id}/cancel`,
    { cancellation_note: 'Matrix', period: 'immediately' },
    suite.admin.token,
  );
  expect(ending.status).toBe(200);

  // The states are real, reached the way users reach them.
  const status = async (user: Session) => (await subscriptionOf(user.id))?.status;
  expect(await status(owner)).toBe('active');
  expect(await status(pending)).toBe('pending');
  expect(await status(unpaid)).toBe('payment_required');
  expect(
    await eventually(
      () => status(renewalFailed),
      (s) => s === 'failed_renewal',
    ),
  ).toBe('failed_renewal');
  const graceRow = await subscriptionOf(grace.id);
  expect(graceRow.status).toBe('canceled');
  expect(new Date(graceRow.canceled_at).getTime()).toBeGreaterThan(Date.now());
  const endedRow = await subscriptionOf(ended.id);
  expect(endedRow.status).toBe('canceled');
  expect(new Date(endedRow.canceled_at).getTime()).toBeLessThanOrEqual(Date.now());
  expect(await subscriptionOf(none.id)).toBeUndefined();

  const invoice = await suite
    .db('branchify_invoices')
    .where({ subscription_id: (await subscriptionOf(unpaid.id)).id })
    .first();
  expect(invoice?.status).toBe('open');
  foreign.unpaidInvoice = { id: invoice.id, invoice_id: invoice.invoice_id };

  // One session per role for the whole matrix (sign-ins are rate limited per account).
  const as = (s: Session) => ({ http: client(), token: s.token, session: s });
  sessions.set('anonymous', { http: client() });
  sessions.set('unverified', as(unverified));
  sessions.set('suspended', as(suspended));
  sessions.set('active', as(owner));
  sessions.set('pending', as(pending));
  sessions.set('payment_required', as(unpaid));
  sessions.set('failed_renewal', as(renewalFailed));
  sessions.set('canceled-grace', as(grace));
  sessions.set('canceled-past', as(ended));
  sessions.set('no-subscription', as(none));
  sessions.set('other-creator', as(other));
  sessions.set('admin', as(suite.admin));
});

type Expectation = 'allowed' | 401 | 403 | 404 | 'strapi-refused' | 'token-refused';
const TENANT_OBJECTS = new Set(['funnel', 'video', 'subscription']);
/** Its credential is the refresh cookie, not a bearer token: without the cookie it answers 401. */
const COOKIE_CREDENTIAL = 'POST /api/auth/refresh-token';

const isTenantCell = (row: RouteRow, role: Role) =>
  Boolean(row.object && TENANT_OBJECTS.has(row.object)) && role !== OWNER && !(role === 'admin' && row.adminSeesAll);

const expectationFor = (row: RouteRow, role: Role): Expectation => {
  if (row.access === 'strapi') return 'strapi-refused';
  if (row.access === 'apiToken') return 'token-refused';
  if (row.access === 'public') return 'allowed';
  if (role === 'anonymous' || role === 'suspended') return 401;
  if (row.access === 'admin') return role === 'admin' ? 'allowed' : 403;
  if (row.access === 'verified' && role === 'unverified') return 403;
  if (isTenantCell(row, role)) return 404;
  return 'allowed';
};

/** Whether the answer must be free of the owner's data (everything but public and admin-only routes). */
const mustNotLeak = (row: RouteRow, role: Role) =>
  row.access !== 'public' && row.access !== 'admin' && role !== OWNER && !(role === 'admin' && row.adminSeesAll);

const REFUSAL = {
  verified: 'Your email address is not verified.',
  admin: 'This action is unauthorized.',
} as const;

/** The concrete URL for a cell: the owner's real objects, unless success would change shared state. */
const urlFor = (path: string, row: RouteRow, expectation: Expectation): string =>
  path.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'uid') return 'plugin::users-permissions.user';
    if (!row.object) return '1';
    if (row.effects && expectation === 'allowed') return MISSING_ID;
    return owned[row.object];
  });

const send = (http: Client, method: string, url: string, token?: string, body: object = {}) => {
  switch (method) {
    case 'GET':
      return http.get(url, token);
    case 'DELETE':
      return http.delete(url, token);
    case 'PUT':
      return http.put(url, body, token);
    default:
      return http.post(url, body, token);
  }
};

const verdict = (
  key: string,
  role: Role,
  row: RouteRow,
  expectation: Expectation,
  res: { status: number; body?: { message?: unknown; error?: { name?: unknown } } },
): string | null => {
  const { status } = res;
  const message = res.body?.message;
  if (status >= 500) return `server error ${status}`;
  switch (expectation) {
    case 401: {
      // A suspended user's genuine session is told why; anyone else learns nothing.
      const expected = role === 'suspended' ? MESSAGES.accountSuspended : 'Unauthenticated.';
      return status === 401 && message === expected ? null : `expected 401 ${expected}, got ${status} ${message}`;
    }
    case 403:
      return status === 403 && message === REFUSAL[row.access as 'verified' | 'admin'] ? null : `expected 403, got ${status} ${message}`;
    case 404:
      return status === 404 ? null : `expected 404 (another tenant's object), got ${status} ${message}`;
    case 'token-refused':
      return status === 401 && res.body?.error?.name === 'UnauthorizedError' ? null : `expected Strapi's 401 (API tokens only), got ${status}`;
    case 'strapi-refused':
      return [401, 403, 404, 405].includes(status) ? null : `Strapi's content API answered ${status}`;
    case 'allowed':
      if (status === 401 && key !== COOKIE_CREDENTIAL) return `refused with 401 ${message}`;
      if (status === 403) return `refused with 403 ${message}`;
      return null;
  }
};

describe('route × role matrix', () => {
  it('has exactly one row per registered /api route', () => {
    const api = registered().api;
    const missing = api.filter((k) => !(k in ROUTE_TABLE));
    const stale = Object.keys(ROUTE_TABLE).filter((k) => !api.includes(k));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it('has no route that an earlier one of the same method answers in its place', () => {
    const { api, admin } = registered();
    const parse = (key: string) => {
      const [method, path] = key.split(' ');
      return { key, method, segments: path!.split('/').filter(Boolean) };
    };
    // A plain `:param` segment takes any segment; a constrained one (`:id(\d+)`) counts as literal.
    const takes = (earlier: string, later: string) => (earlier.startsWith(':') && !earlier.includes('(')) || earlier === later;
    const shadowed: string[] = [];
    for (const list of [api, admin]) {
      const routes = list.map(parse);
      routes.forEach((route, i) => {
        const first = routes
          .slice(0, i)
          .find((e) => e.method === route.method && e.segments.length === route.segments.length && e.segments.every((s, j) => takes(s, route.segments[j]!)));
        if (first) shadowed.push(`${route.key} (answered by ${first.key})`);
      });
    }
    expect(shadowed).toEqual([]);
  });

  it('answers every route for every role as its row says, and never hands one tenant another’s data', async () => {
    const failures: string[] = [];
    let checked = 0;
    let leftToSuites = 0;
    for (const [key, row] of Object.entries(ROUTE_TABLE)) {
      const [method, path] = key.split(' ') as [string, string];
      for (const role of ROLES) {
        const expectation = expectationFor(row, role);
        if (expectation === 'allowed' && typeof row.effects === 'string') {
          leftToSuites += 1;
          continue;
        }
        const { http, token } = sessions.get(role)!;
        const res = await send(http, method, urlFor(path, row, expectation), token);
        checked += 1;
        const wrong = verdict(key, role, row, expectation, res);
        if (wrong) failures.push(`${key} as ${role}: ${wrong}`);
        if (mustNotLeak(row, role)) {
          const leaked = ownerMarkers.filter((m) => res.text?.includes(m));
          if (leaked.length) failures.push(`${key} as ${role}: answered with the owner's data (${leaked.join(', ')})`);
        }
      }
    }
    const routes = Object.keys(ROUTE_TABLE).length;
    record('routes', routes);
    record('roles', ROLES.length);
    record('cells', checked);
    console.log(
      `route matrix: ${routes} routes × ${ROLES.length} roles = ${routes * ROLES.length} cells, ${checked} checked here ` +
        `(${leftToSuites} allowed cells whose success changes shared state are checked by the suites their rows name)`,
    );
    expect(failures).toEqual([]);
  });

  it('another tenant’s objects named in a body are as unknown as in a path', async () => {
    const other = sessions.get('other-creator')!;
    // A funnel of mine that plays someone else's video.
    const before = await suite.db('branchify_funnels').where({ id: foreign.otherFunnel }).first();
    const borrowed = await other.http.put(
      `/api/funnels/${foreign.otherFunnel}`,
      { title: 'Borrowed', description: '', settings: { enable_resume_play: false }, videos: [{ id: foreign.ownerVideo, editor_id: 'intro', elements: [] }] },
      other.token,
    );
    expect({ status: borrowed.status, refused: [404, 422].includes(borrowed.status) }).toEqual({ status: borrowed.status, refused: true });
    expect(await suite.db('branchify_funnels').where({ id: foreign.otherFunnel }).first()).toEqual(before);

    // Someone else's open invoice, paid through my own subscription, by our id or Stripe's.
    for (const invoiceId of [foreign.unpaidInvoice.id, foreign.unpaidInvoice.invoice_id]) {
      const pay = await other.http.post(`/api/users/subscriptions/${foreign.otherSubscription}/invoices/pay`, { invoice_id: invoiceId }, other.token);
      expect({ invoiceId, status: pay.status }).toEqual({ invoiceId, status: 404 });
    }
    expect((await suite.db('branchify_invoices').where({ id: foreign.unpaidInvoice.id }).first()).status).toBe('open');
  });

  it('public answers carry nothing private, and the OAuth callback sends the browser only to our own page', async () => {
    const owner = sessions.get(OWNER)!.session!;
    for (const url of [`/api/funnels/${owned.reference}/player`, `/player/${owned.reference}`]) {
      const res = await client()
        .get(url)
        .set('Accept', url.startsWith('/player') ? 'text/html' : 'application/json');
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      expect({ url, private: res.text.match(new RegExp(`${owner.email}|owner_id|user_id|stripe|password|token_version`, 'i'))?.[0] ?? null }).toEqual({
        url,
        private: null,
      });
    }
    const callback = await client().get('/api/stripe/oauth/callback?code=x&state=y&redirect=https://evil.example&redirect_uri=https://evil.example');
    expect(callback.status).toBe(302);
    expect(callback.headers.location).toMatch(/^\/(?!\/)/);
  });
});

/**
 * Strapi's own content API for its plugins and for every content type: none of it is routed
 * (users-permissions' local auth and user CRUD, upload, i18n, the plugin's content types), or
 * what is routed refuses our tokens; a caller never gets a 2xx.
 */
const STRAPI_CONTENT_API_PROBES = [
  'GET /api/users',
  'GET /api/users/me',
  'GET /api/users/1',
  'GET /api/users/count',
  'PUT /api/users/1',
  'POST /api/users',
  'GET /api/users-permissions/roles',
  'GET /api/users-permissions/permissions',
  'GET /api/connect/github',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'GET /api/auth/email-confirmation',
  'POST /api/auth/change-password',
  'GET /api/upload/files',
  'POST /api/upload',
  'GET /api/i18n/locales',
  'POST /api/i18n/locales',
  ...[
    'subscriptions',
    'invoices',
    'mailer-settings',
    'mailer-setting',
    'stripe-settings',
    'stripe-setting',
    'update-states',
    'refresh-tokens',
    'password-resets',
    'install-claims',
    'rate-limits',
    'stripe-events',
    'mail-outboxes',
  ].map((name) => `GET /api/${name}`),
  ...['plans', 'subscriptions', 'invoices', 'videos', 'funnels', 'customization', 'refresh-tokens'].map((name) => `GET /api/branchify/${name}`),
];

describe("Strapi's content API", () => {
  it('answers no visitor, creator or admin token with data, and its local sign-in and registration do not exist', async () => {
    const failures: string[] = [];
    const creator = sessions.get('no-subscription')!;
    const callers = [
      ['anonymous', sessions.get('anonymous')!],
      ['creator', creator],
      ['admin', sessions.get('admin')!],
    ] as const;
    let cells = 0;
    for (const key of STRAPI_CONTENT_API_PROBES) {
      const [method, path] = key.split(' ') as [string, string];
      for (const [who, { http, token }] of callers) {
        const res = await send(http, method, path, token);
        cells += 1;
        if (res.status < 300 || res.status >= 500) failures.push(`${key} as ${who}: ${res.status}`);
      }
    }
    // With real credentials: users-permissions' own sign-in would mint a token of its own.
    const local = await client().post('/api/auth/local', { identifier: creator.session!.email, password: PASSWORD });
    const register = await client().post('/api/auth/local/register', {
      username: 'mallory',
      email: `mallory-${randomUUID()}@example.test`,
      password: PASSWORD,
    });
    for (const [key, res] of [
      ['POST /api/auth/local', local],
      ['POST /api/auth/local/register', register],
    ] as const) {
      cells += 1;
      if (res.status < 300 || res.status >= 500 || /jwt/i.test(res.text)) failures.push(`${key} with credentials: ${res.status} ${res.text.slice(0, 80)}`);
    }
    console.log(`strapi content API: ${cells} probes`);
    expect(failures).toEqual([]);
  });
});

/**
 * Strapi's admin API (/admin/*, mounted even when its panel is not served): nothing in it answers a
 * visitor or a Branchify token with data, except the handful of public endpoints its sign-in page
 * needs, and its first-admin registration is closed.
 */
const STRAPI_ADMIN_PUBLIC = new Set([
  'GET /admin/init',
  'GET /admin/project-type',
  'GET /admin/telemetry-properties',
  'POST /admin/logout',
  'POST /admin/forgot-password',
  // The content manager's static preview script (no data).
  'GET /content-manager/preview/script',
]);

describe("Strapi's admin API", () => {
  it('refuses visitors and Branchify tokens everywhere but its public sign-in endpoints', async () => {
    const failures: string[] = [];
    let cells = 0;
    const callers = [
      ['anonymous', sessions.get('anonymous')!],
      ['branchify admin', sessions.get('admin')!],
      ['creator', sessions.get(OWNER)!],
    ] as const;
    for (const key of registered().admin) {
      const [method, path] = key.split(' ') as [string, string];
      const url = path.replace(/:(\w+)/g, '1');
      for (const [who, { http, token }] of callers) {
        const res = await send(http, method, url, token);
        cells += 1;
        if (res.status >= 500) failures.push(`${key} as ${who}: server error ${res.status}`);
        else if (res.status < 300 && !STRAPI_ADMIN_PUBLIC.has(key)) failures.push(`${key} as ${who}: answered ${res.status}`);
      }
    }
    record('strapi-admin-cells', cells);
    console.log(`strapi admin API: ${cells} cells checked`);
    expect(failures).toEqual([]);
  });

  it('never offers or accepts the first-admin registration', async () => {
    const init = await client().get('/admin/init');
    expect(init.status).toBe(200);
    expect(init.body.data.hasAdmin).toBe(true);
    const claim = await client().post('/admin/register-admin', {
      email: `mallory-${randomUUID()}@example.test`,
      password: 'Takeover-1234',
      firstname: 'M',
      lastname: 'Allory',
    });
    expect(claim.status).toBe(403);
    expect(claim.text).not.toMatch(/"token"/);
  });
});
