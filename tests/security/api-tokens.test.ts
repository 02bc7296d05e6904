import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { apiToken, cmsOperatorJwt } from '../api/support/cms';
import { baseUrl, client, newIp } from '../api/support/http';
import { sink } from '../api/support/mail';
import { adminSession, uniqueEmail, verifiedUser, type Session } from '../api/support/users';
import { record } from './summary';
import { useApiSuite } from '../api/support/suite';

/**
 * Strapi API tokens (made by an operator in /cms for integrators) open the integrator API the
 * README names, under /api/branchify, and nothing else: not Strapi's own content API (upload,
 * email, content-type builder, i18n), not the app's routes, not Strapi's admin API. A route that
 * answers a visitor without any credential answers a token holder exactly as it answers the visitor.
 */

const UPLOADS_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);
const HTML_PAYLOAD = '<!doctype html><script>fetch("/api/auth/refresh-token",{method:"POST",credentials:"include"})</script>';
const JS_PAYLOAD = 'fetch("/api/auth/refresh-token",{method:"POST",credentials:"include"});';

/** The integrator API as the README and its OpenAPI document name it (`METHOD path` as registered). */
const INTEGRATOR_READS = [
  'GET /api/branchify/plans',
  'GET /api/branchify/plans/:id',
  'GET /api/branchify/funnels',
  'GET /api/branchify/funnels/:id',
  'GET /api/branchify/funnels/:id/export',
  'GET /api/branchify/videos',
  'GET /api/branchify/videos/:id',
  'GET /api/branchify/subscriptions',
  'GET /api/branchify/subscriptions/:id',
  'GET /api/branchify/users',
  'GET /api/branchify/users/:id',
];
const INTEGRATOR_WRITES = [
  'POST /api/branchify/subscriptions',
  'PUT /api/branchify/subscriptions/:id',
  'POST /api/branchify/subscriptions/:id/cancel',
  'POST /api/branchify/subscriptions/:id/resume',
  'POST /api/branchify/funnels/import',
];
const INTEGRATOR = new Set([...INTEGRATOR_READS, ...INTEGRATOR_WRITES, 'GET /api/branchify/openapi.json']);
// 415: a multipart body outside the upload routes is refused before it is read (security/bodies.test.ts).
const REFUSED = [401, 403, 404, 405, 415];

interface RegisteredRoute {
  path: string;
  methods: string[];
}

/** Every route the running server registered, /api and admin (written by tests/harness/global-setup.js). */
const registered = (): string[] => {
  const file = process.env.BRANCHIFY_ROUTES_FILE;
  if (!file) throw new Error('BRANCHIFY_ROUTES_FILE is not set (tests/harness/global-setup.js writes it)');
  const routes = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<'content-api' | 'admin', RegisteredRoute[]>;
  return [...routes['content-api'], ...routes.admin].flatMap((r) => r.methods.map((m) => `${m} ${r.path}`));
};

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One request from a fresh client address (the suite's many calls never meet a per-address limit). */
const call = (method: string, url: string, token?: string, body?: object) => {
  const agent = request(baseUrl());
  const req = agent[method.toLowerCase() as Method](url).set('X-Forwarded-For', newIp()).set('Accept', 'application/json');
  if (token) req.set('Authorization', `Bearer ${token}`);
  return method === 'GET' || method === 'DELETE' ? req : req.send(body ?? {});
};

const uploadsOnDisk = (): Set<string> => new Set(fs.existsSync(UPLOADS_DIR) ? fs.readdirSync(UPLOADS_DIR) : []);

const suite = useApiSuite();
let cmsJwt: string;
let creator: Session;
/** The creator's image: its url, its upload-plugin file id. */
const image = { url: '', fileId: 0 };
const tokens: Array<['read-only' | 'full-access', string]> = [];

beforeAll(async () => {
  cmsJwt = await cmsOperatorJwt('Tokyo');
  tokens.push(['read-only', await apiToken(cmsJwt, 'read-only')], ['full-access', await apiToken(cmsJwt, 'full-access')]);
  creator = await verifiedUser();
  const uploaded = await request(baseUrl())
    .post('/api/uploads/images')
    .set('X-Forwarded-For', creator.http.ip)
    .set('Authorization', `Bearer ${creator.token}`)
    .attach('image', PNG, 'button.png');
  expect(uploaded.status).toBe(201);
  image.url = uploaded.body.data.url;
  image.fileId = Number((await suite.db('branchify_creator_images').where({ url: image.url }).first()).file_id);
  expect(image.fileId).toBeGreaterThan(0);
});
afterAll(async () => {
  // Deleting the creator removes their image.
  const admin = await adminSession();
  await admin.http.delete(`/api/admin/users/${creator.id}`, admin.token);
});

describe('API tokens', () => {
  it('open the integrator API: reads answer both kinds of token, writes only a full-access one', async () => {
    for (const [kind, token] of tokens) {
      for (const key of INTEGRATOR_READS.filter((k) => !k.includes(':id'))) {
        const res = await call('GET', key.split(' ')[1]!, token);
        expect({ kind, key, status: res.status }).toEqual({ kind, key, status: 200 });
      }
      const write = await call('POST', '/api/branchify/subscriptions/missing/cancel', token, { data: {} });
      expect({ kind, status: write.status }).toEqual({ kind, status: kind === 'read-only' ? 403 : 404 });
    }
  });

  it('open nothing else: every registered /api and admin route answers a token holder as it answers a visitor without one', async () => {
    const routes = registered();
    const failures: string[] = [];
    let cells = 0;
    for (const key of routes) {
      const [method, routePath] = key.split(' ') as [string, string];
      const url = routePath.replace(/:(\w+)/g, (_m, name: string) =>
        name === 'id' && routePath.startsWith('/api/upload') ? String(image.fileId) : name === 'uid' ? 'plugin::users-permissions.user' : 'missing',
      );
      if (INTEGRATOR.has(key)) {
        for (const [kind, token] of tokens) {
          const res = await call(method, url, token);
          cells += 1;
          if (res.status >= 500) failures.push(`${key} with a ${kind} token: server error ${res.status}`);
        }
        continue;
      }
      const visitor = await call(method, url);
      for (const [kind, token] of tokens) {
        const res = await call(method, url, token);
        cells += 1;
        if (res.status >= 500) failures.push(`${key} with a ${kind} token: server error ${res.status}`);
        else if (REFUSED.includes(visitor.status)) {
          if (!REFUSED.includes(res.status)) failures.push(`${key} with a ${kind} token: answered ${res.status} (a visitor is refused with ${visitor.status})`);
        } else if (res.status !== visitor.status) failures.push(`${key} with a ${kind} token: ${res.status}, a visitor gets ${visitor.status}`);
      }
    }
    // The creator's image survived every DELETE above.
    if (!(await suite.db('files').where({ id: image.fileId }).first())) failures.push(`the creator's image row ${image.fileId} is gone`);
    if (!fs.existsSync(path.join(UPLOADS_DIR, path.basename(image.url)))) failures.push(`the creator's image file ${image.url} is gone`);
    record('api-token-cells', cells);
    console.log(`api tokens: ${routes.length} registered routes × ${tokens.length} tokens = ${cells} cells`);
    expect(failures).toEqual([]);
  });

  /** The paths reported, spelled as a router that ignores case and trailing slashes still matches them. */
  const spellings = (p: string): string[] => [p, `${p}/`, p.toUpperCase(), p.replace('/api/', '/Api/'), `${p.replace(/^\/api/, '/API')}/`, `${p}?`];

  it('cannot upload a page or a script, however the path is spelled', async () => {
    const before = uploadsOnDisk();
    const rowsBefore = await suite.db('files').count({ n: '*' });
    for (const url of spellings('/api/upload')) {
      for (const [kind, token] of tokens) {
        for (const [name, content, type] of [
          ['x.js', JS_PAYLOAD, 'application/javascript'],
          ['x.html', HTML_PAYLOAD, 'text/html'],
        ] as const) {
          const res = await request(baseUrl())
            .post(url)
            .set('X-Forwarded-For', newIp())
            .set('Authorization', `Bearer ${token}`)
            .attach('files', Buffer.from(content), { filename: name, contentType: type });
          expect({ url, kind, name, refused: REFUSED.includes(res.status) }).toEqual({ url, kind, name, refused: true });
        }
      }
    }
    expect([...uploadsOnDisk()].filter((f) => !before.has(f))).toEqual([]);
    expect(await suite.db('files').count({ n: '*' })).toEqual(rowsBefore);
  });

  it('cannot list, read or delete stored files, read the content types, or send mail, however the path is spelled', async () => {
    const to = uniqueEmail('token-mail');
    const attempts: Array<[string, string, object?]> = [
      ...spellings('/api/upload/files').map((u) => ['GET', u] as [string, string]),
      ...spellings('/api/upload/files/page').map((u) => ['GET', u] as [string, string]),
      ...spellings(`/api/upload/files/${image.fileId}`).map((u) => ['GET', u] as [string, string]),
      ...spellings(`/api/upload/files/${image.fileId}`).map((u) => ['DELETE', u] as [string, string]),
      ...spellings('/api/content-type-builder/content-types').map((u) => ['GET', u] as [string, string]),
      ...spellings('/api/content-type-builder/components').map((u) => ['GET', u] as [string, string]),
      ...spellings('/api/i18n/locales').map((u) => ['GET', u] as [string, string]),
      ...spellings('/api/email').map((u) => ['POST', u, { to, subject: 'From a token', text: 'Hello' }] as [string, string, object]),
    ];
    for (const [method, url, body] of attempts) {
      for (const [kind, token] of tokens) {
        const res = await call(method, url, token, body);
        expect({ method, url, kind, refused: REFUSED.includes(res.status) }).toEqual({ method, url, kind, refused: true });
        expect(res.text).not.toContain(path.basename(image.url));
      }
    }
    expect(await suite.db('files').where({ id: image.fileId }).first()).toBeDefined();
    expect(fs.existsSync(path.join(UPLOADS_DIR, path.basename(image.url)))).toBe(true);
    expect(await sink.to(to)).toEqual([]);
  });
});

describe('/cms operators', () => {
  it('keep the media library (admin JWT): list files, upload a product image, but no page or script', async () => {
    const listed = await client().get('/upload/files', cmsJwt);
    expect(listed.status).toBe(200);
    const up = (name: string, content: Buffer, type: string) =>
      request(baseUrl())
        .post('/upload')
        .set('X-Forwarded-For', newIp())
        .set('Authorization', `Bearer ${cmsJwt}`)
        .attach('files', content, { filename: name, contentType: type });
    const png = await up('operator.png', PNG, 'image/png');
    expect(png.status).toBe(201);
    const before = uploadsOnDisk();
    for (const [name, content, type] of [
      ['x.html', HTML_PAYLOAD, 'text/html'],
      ['x.js', JS_PAYLOAD, 'application/javascript'],
      ['x.txt', 'plain', 'text/plain'],
    ] as const) {
      const res = await up(name, Buffer.from(content), type);
      expect({ name, status: res.status < 300 ? res.status : 'refused' }).toEqual({ name, status: 'refused' });
    }
    expect([...uploadsOnDisk()].filter((f) => !before.has(f))).toEqual([]);
    const removed = await client().delete(`/upload/files/${png.body[0].id}`, cmsJwt);
    expect(removed.status).toBe(200);
  });
});
