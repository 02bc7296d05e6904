import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import request from 'supertest';
import { addVideo, createFunnel, freePlan, subscribedUser } from '../api/support/content';
import { openDb } from '../api/support/db';
import { baseUrl, newIp } from '../api/support/http';
import { findLoggedLink, logLength } from '../api/support/log';
import { spawnApp, type SpawnedApp } from '../api/support/spawn';
import { adminSession, registerUser, verifiedUser, type Session } from '../api/support/users';
import { ROUTE_TABLE, type RouteRow } from './route-table';
import { record } from './summary';

/**
 * Strapi's router matches a path case-insensitively and with or without a trailing slash, and
 * Koa's file servers decode percent-escapes: a guard that compares the path as one literal string
 * is bypassed by another spelling of it. Every guarded route is walked here in the spellings a
 * client can send; each must be refused exactly as the canonical spelling is (or not be routed at
 * all: 404/405), and never answered with data.
 */

interface Part {
  text: string;
  param: boolean;
}

/** A route template (`/api/funnels/:id`) as segments, its parameters filled in. */
const partsOf = (template: string, fill: (name: string) => string): Part[] =>
  template
    .split('/')
    .slice(1)
    .map((segment) =>
      segment.includes(':') ? { text: segment.replace(/:(\w+)(\([^)]*\))?/g, (_m, name: string) => fill(name)), param: true } : { text: segment, param: false },
    );

const join = (parts: Part[], separator = '/') => `/${parts.map((p) => p.text).join(separator)}`;
const mapStatic = (parts: Part[], change: (text: string) => string) => parts.map((p) => (p.param ? p : { ...p, text: change(p.text) }));
const capitalised = (text: string) => text.replace(/(^|[-_.])([a-z])/g, (_m, before: string, letter: string) => before + letter.toUpperCase());
/** The first letter of a segment as a percent-escape (`admin` → `%61dmin`). */
const escapeFirstLetter = (text: string, lowerHex = false) => {
  const at = text.search(/[a-z]/i);
  if (at < 0) return text;
  const hex = text.charCodeAt(at).toString(16);
  return `${text.slice(0, at)}%${lowerHex ? hex : hex.toUpperCase()}${text.slice(at + 1)}`;
};
const escapeIn = (parts: Part[], index: number, lowerHex = false) =>
  parts.map((p, i) => (i === index ? { ...p, text: escapeFirstLetter(p.text, lowerHex) } : p));
const lastStatic = (parts: Part[]) => parts.map((p) => !p.param).lastIndexOf(true);

/** Other spellings of one path that a client can send; null where a spelling does not apply. */
const SPELLINGS: Array<{ name: string; spell: (parts: Part[]) => string | null }> = [
  { name: 'upper case', spell: (p) => join(mapStatic(p, (t) => t.toUpperCase())) },
  { name: 'mixed case', spell: (p) => join(mapStatic(p, capitalised)) },
  { name: 'trailing slash', spell: (p) => `${join(p)}/` },
  { name: 'upper case and trailing slash', spell: (p) => `${join(mapStatic(p, (t) => t.toUpperCase()))}/` },
  { name: 'repeated slashes', spell: (p) => join(p, '//') },
  { name: 'leading double slash', spell: (p) => `/${join(p)}` },
  { name: 'escaped letter, first segment', spell: (p) => join(escapeIn(p, 0)) },
  { name: 'escaped letter, last segment, lower-case hex', spell: (p) => (lastStatic(p) > 0 ? join(escapeIn(p, lastStatic(p), true)) : null) },
  {
    name: 'escaped slash',
    spell: (p) =>
      p.length > 1
        ? `/${p[0]!.text}%2F${p
            .slice(1)
            .map((x) => x.text)
            .join('/')}`
        : null,
  },
  { name: 'escaped slashes, lower-case hex', spell: (p) => (p.length > 1 ? `/${p.map((x) => x.text).join('%2f')}` : null) },
];

const spellingsOf = (parts: Part[]) => SPELLINGS.flatMap(({ name, spell }) => (spell(parts) === null ? [] : [{ name, url: spell(parts)! }]));

interface Answer {
  status: number;
  text: string;
  body: { message?: unknown; error?: { message?: unknown }; data?: { hasAdmin?: unknown } | null };
}

/** One request from a client address of its own (rate limits count per address), with or without a bearer token. */
const send = async (base: string, method: string, url: string, token?: string, body: object = {}): Promise<Answer> => {
  const agent = request(base);
  const test = method === 'GET' ? agent.get(url) : method === 'DELETE' ? agent.delete(url) : method === 'PUT' ? agent.put(url) : agent.post(url);
  test.set('X-Forwarded-For', newIp()).set('Accept', 'application/json');
  if (token) test.set('Authorization', `Bearer ${token}`);
  if (method === 'POST' || method === 'PUT') test.send(body);
  const res = await test;
  return { status: res.status, text: res.text, body: (res.body ?? {}) as Answer['body'] };
};

const messageOf = (a: Answer) => a.body?.message ?? a.body?.error?.message;
/** Which error shape answered: the /api envelope, Strapi's own, or something else. */
const shapeOf = (a: Answer) => (a.body && 'success' in a.body ? 'envelope' : a.body && 'error' in a.body ? 'strapi' : 'other');

/** Runs the tasks a few at a time (one server; enough to keep it busy, not to flood it). */
const inBatches = async <T>(tasks: Array<() => Promise<T>>, size = 4): Promise<T[]> => {
  const out: T[] = [];
  for (let i = 0; i < tasks.length; i += size) out.push(...(await Promise.all(tasks.slice(i, i + size).map((t) => t()))));
  return out;
};

/**
 * Whether the canonical spelling must be refused: a spelled request is only compared where the
 * canonical one is a refusal (an allowed cell's spelling could change shared state).
 */
type Role = 'anonymous' | 'unverified' | 'creator' | 'admin';
const ROLES: Role[] = ['anonymous', 'unverified', 'creator', 'admin'];
const TENANT_OBJECTS = new Set(['funnel', 'video', 'subscription']);
const refused = (row: RouteRow, role: Role): boolean => {
  if (row.access === 'public') return false;
  if (row.access === 'strapi' || row.access === 'apiToken') return true;
  if (role === 'anonymous') return true;
  if (row.access === 'admin') return role !== 'admin';
  if (row.access === 'verified' && role === 'unverified') return true;
  // Neither the creator nor the admin owns the tenant objects the cells name.
  return Boolean(row.object && TENANT_OBJECTS.has(row.object)) && !(role === 'admin' && row.adminSeesAll);
};

/** The routes the running server registered (written by tests/harness/global-setup.js). */
const registeredAdminRoutes = (): string[] => {
  const file = process.env.BRANCHIFY_ROUTES_FILE;
  if (!file) throw new Error('BRANCHIFY_ROUTES_FILE is not set (tests/harness/global-setup.js writes it)');
  const routes = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<'admin', Array<{ path: string; methods: string[] }>>;
  return routes.admin.flatMap((r) => r.methods.map((m) => `${m} ${r.path}`));
};

/** The same refusal as the canonical spelling, or not routed at all. */
const sameRefusal = (canonical: Answer, spelled: Answer): string | null => {
  if (spelled.status >= 500) return `server error ${spelled.status}`;
  if (spelled.status < 300) return `answered ${spelled.status} (canonical: ${canonical.status}) ${spelled.text.slice(0, 120)}`;
  if (spelled.status === 404 || spelled.status === 405) return null;
  if (spelled.status !== canonical.status || messageOf(spelled) !== messageOf(canonical) || shapeOf(spelled) !== shapeOf(canonical))
    return (
      `answered ${spelled.status} ${JSON.stringify(messageOf(spelled))} (${shapeOf(spelled)}), ` +
      `canonical ${canonical.status} ${JSON.stringify(messageOf(canonical))} (${shapeOf(canonical)})`
    );
  return null;
};

let spellingCells = 0;
afterAll(() => {
  record('path-spellings', spellingCells);
  console.log(`path spellings: ${spellingCells} spelled requests checked`);
});

describe('guarded routes in every spelling', () => {
  let db: Knex;
  let admin: Session;
  const tokens = new Map<Role, string | undefined>();
  const owned = { funnel: '', video: '', subscription: '', user: '', plan: '' };

  beforeAll(async () => {
    db = openDb();
    admin = await adminSession();
    const plan = await freePlan(admin);
    const owner = await subscribedUser(admin, plan.id);
    const video = await addVideo(owner);
    const funnel = await createFunnel(owner);
    const subscription = await db('branchify_subscriptions').where({ user_id: owner.id }).orderBy('id', 'desc').first();
    Object.assign(owned, {
      funnel: String(funnel.id),
      video: String(video.id),
      subscription: String(subscription.id),
      user: String(owner.id),
      plan: String(plan.id),
    });
    tokens.set('anonymous', undefined);
    tokens.set('unverified', (await registerUser()).token);
    tokens.set('creator', (await verifiedUser()).token);
    tokens.set('admin', admin.token);
  });
  afterAll(() => db.destroy());

  const fill = (row: RouteRow) => (name: string) =>
    name === 'uid' ? 'plugin::users-permissions.user' : row.object && row.object !== 'reference' ? owned[row.object] : '1';

  it('refuses every /api route with an access rule in every spelling exactly as in its canonical spelling', async () => {
    const failures: string[] = [];
    const cells: Array<() => Promise<void>> = [];
    for (const [key, row] of Object.entries(ROUTE_TABLE)) {
      const [method, template] = key.split(' ') as [string, string];
      const parts = partsOf(template, fill(row));
      for (const role of ROLES.filter((r) => refused(row, r))) {
        cells.push(async () => {
          const token = tokens.get(role);
          const canonical = await send(baseUrl(), method, join(parts), token);
          if (canonical.status < 400 || canonical.status >= 500) {
            failures.push(`${key} as ${role}: the canonical spelling answered ${canonical.status}`);
            return;
          }
          for (const { name, url } of spellingsOf(parts)) {
            const wrong = sameRefusal(canonical, await send(baseUrl(), method, url, token));
            spellingCells += 1;
            if (wrong) failures.push(`${method} ${url} (${name}) as ${role}: ${wrong}`);
          }
        });
      }
    }
    await inBatches(cells);
    expect(failures).toEqual([]);
  });

  it("refuses every guarded route of Strapi's admin API in every spelling exactly as in its canonical spelling", async () => {
    const failures: string[] = [];
    const cells: Array<() => Promise<void>> = [];
    const callers: Array<[string, string | undefined]> = [
      ['anonymous', undefined],
      ['branchify admin', admin.token],
    ];
    for (const key of registeredAdminRoutes()) {
      const [method, template] = key.split(' ') as [string, string];
      const parts = partsOf(template, () => '1');
      for (const [who, token] of callers) {
        cells.push(async () => {
          const canonical = await send(baseUrl(), method, join(parts), token);
          // Its public endpoints (the sign-in page's) answer anyone; /admin/init is checked on a fresh install below.
          if (canonical.status < 400) return;
          for (const { name, url } of spellingsOf(parts)) {
            const wrong = sameRefusal(canonical, await send(baseUrl(), method, url, token));
            spellingCells += 1;
            if (wrong) failures.push(`${method} ${url} (${name}) as ${who}: ${wrong}`);
          }
        });
      }
    }
    await inBatches(cells);
    expect(failures).toEqual([]);
  });
});

describe('a fresh install without a /cms super admin', () => {
  let app: SpawnedApp;
  let db: Knex;
  beforeAll(async () => {
    app = await spawnApp();
    db = app.openDb();
  });
  afterAll(async () => {
    await db?.destroy();
    await app?.cleanUp();
  });

  const register = (url: string) =>
    send(app.base, 'POST', url, undefined, {
      email: `mallory-${randomUUID()}@example.test`,
      password: 'Takeover-1234',
      firstname: 'Mallory',
      lastname: 'Allory',
    });

  it('refuses the first-admin registration in every spelling and /admin/init never offers the seat', async () => {
    const failures: string[] = [];
    // Before any claim: the seat is free, and no spelling may say so.
    for (const url of ['/admin/init', ...spellingsOf(partsOf('/admin/init', () => '')).map((s) => s.url)]) {
      const res = await send(app.base, 'GET', url);
      spellingCells += 1;
      if (res.status >= 500) failures.push(`GET ${url}: server error ${res.status}`);
      else if (res.body?.data?.hasAdmin === false) failures.push(`GET ${url}: hasAdmin false`);
      else if (res.status === 200 && res.body?.data?.hasAdmin !== true) failures.push(`GET ${url}: 200 without hasAdmin true`);
    }
    const parts = partsOf('/admin/register-admin', () => '');
    const urls = ['/admin/register-admin', '/ADMIN/register-admin', '/admin/Register-Admin', ...spellingsOf(parts).map((s) => s.url)];
    const canonical = await register('/admin/register-admin');
    expect({ status: canonical.status, token: /"token"/.test(canonical.text) }).toEqual({ status: 403, token: false });
    for (const url of urls) {
      const res = await register(url);
      spellingCells += 1;
      if (/"token"/.test(res.text)) failures.push(`POST ${url}: answered a token (${res.status})`);
      const wrong = sameRefusal(canonical, res);
      if (wrong) failures.push(`POST ${url}: ${wrong}`);
      const admins = Number((await db('admin_users').count({ n: '*' }))[0]!.n);
      if (admins > 0) {
        failures.push(`POST ${url}: made a /cms super admin`);
        break;
      }
    }
    expect(failures).toEqual([]);
    expect(Number((await db('admin_users').count({ n: '*' }))[0]!.n)).toBe(0);
  });
});

describe('an install whose operator opened the /cms registration (CMS_ADMIN_REGISTRATION)', () => {
  let app: SpawnedApp;
  beforeAll(async () => {
    app = await spawnApp({ CMS_ADMIN_REGISTRATION: 'true' });
  });
  afterAll(() => app?.cleanUp());

  it('offers the seat and lets the first visitor take it, once', async () => {
    const init = await send(app.base, 'GET', '/admin/init');
    expect({ status: init.status, hasAdmin: init.body?.data?.hasAdmin }).toEqual({ status: 200, hasAdmin: false });
    const claim = (email: string) =>
      send(app.base, 'POST', '/admin/register-admin', undefined, { email, password: 'Operator-1234', firstname: 'Olga', lastname: 'Operator' });
    const first = await claim(`olga-${randomUUID()}@example.test`);
    expect({ status: first.status, token: /"token"/.test(first.text) }).toEqual({ status: 200, token: true });
    const second = await claim(`mallory-${randomUUID()}@example.test`);
    expect({ status: second.status, token: /"token"/.test(second.text) }).toEqual({ status: 400, token: false });
    expect((await send(app.base, 'GET', '/admin/init')).body?.data?.hasAdmin).toBe(true);
  });
});

/** Paths with a percent-escape that does not decode, across everything the server answers. */
const MALFORMED = [
  '/build/%E0%A4%A',
  '/build/app/%',
  '/player/%E0%A4%A',
  '/demo-media/%E0%A4%A.webm',
  '/uploads/%E0%A4%A',
  '/cms/%E0%A4%A',
  '/admin/%E0%A4%A',
  '/admin/init%',
  '/api/%E0%A4%A',
  '/api/funnels/%E0%A4%A',
  '/api/funnels/%E0%A4%A/player',
  '/api/branchify/plans/%ZZ',
  '/_ready%E0',
  '/%E0%A4%A',
  '/login%',
];

describe('a path that does not decode', () => {
  it('answers 400 or 404 wherever it points (405 for a method it does not take), never a 500, and logs no stack', async () => {
    const before = logLength();
    const failures: string[] = [];
    for (const url of MALFORMED) {
      for (const [method, accept] of [
        ['GET', 'application/json'],
        ['GET', 'text/html'],
        ['POST', 'application/json'],
      ] as const) {
        const test = method === 'GET' ? request(baseUrl()).get(url) : request(baseUrl()).post(url).send({});
        const res = await test.set('X-Forwarded-For', newIp()).set('Accept', accept);
        // 405: a method the path does not take (POST to a page), also a clean refusal.
        if (![400, 404, 405].includes(res.status)) failures.push(`${method} ${url} (${accept}): ${res.status}`);
        if (/\bat .+:\d+:\d+/.test(res.text)) failures.push(`${method} ${url}: a stack in the answer`);
      }
    }
    // A line the server logs after everything above: the log is complete up to it.
    const marker = await registerUser();
    expect(await findLoggedLink('verification', marker.email, before)).toBeDefined();
    const logged = fs.readFileSync(process.env.LOG_FILE!, 'utf8').split('\n').slice(before);
    const stacks = logged.filter((line) => /\\n\s+at .+:\d+:\d+/.test(line)).map((line) => line.slice(0, 160));
    expect([...failures, ...stacks.map((line) => `logged a stack: ${line}`)]).toEqual([]);
  });
});
