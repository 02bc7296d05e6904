import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createFunnel, freePlan, subscribedUser } from '../api/support/content';
import request from 'supertest';
import { baseUrl, client } from '../api/support/http';
import { adminSession, PASSWORD, registerUser } from '../api/support/users';

let reference: string;
beforeAll(async () => {
  const admin = await adminSession();
  const creator = await subscribedUser(admin, (await freePlan(admin)).id);
  reference = (await createFunnel(creator)).identifier;
});

const html = (url: string) => client().get(url).set('Accept', 'text/html');
const json = (url: string) => client().get(url).set('Accept', 'application/json');
const header = (res: { headers: Record<string, unknown> }, name: string) => String(res.headers[name] ?? '');
const frameAncestors = (res: { headers: Record<string, unknown> }) =>
  /frame-ancestors ([^;]+)/.exec(header(res, 'content-security-policy'))?.[1]?.trim() ?? null;

/** A built asset of the web app, when the app is built (CI builds it before the suites). */
const anAsset = (): string | null => {
  const dir = path.join(__dirname, '..', '..', 'cms', 'public', 'build', 'app', 'assets');
  const file = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.js')) : undefined;
  return file ? `/build/app/assets/${file}` : null;
};

/** Each kind of response the server sends: app pages, the player page, a built asset, /api JSON (success and refusal). */
const responses = () =>
  [
    ['/', html('/')],
    ['/login', html('/login')],
    ['/admin', html('/admin')],
    ['/settings', html('/settings')],
    [`/player/${reference}`, html(`/player/${reference}`)],
    ['/player/unknown (its clear 404 page)', html('/player/unknown-funnel')],
    ...(anAsset() ? [[anAsset()!, client().get(anAsset()!)] as const] : []),
    ['/api/customizations', json('/api/customizations')],
    ['/api/auth/user (401)', json('/api/auth/user')],
    ['/api/nowhere (404)', json('/api/nowhere')],
  ] as const;

describe('security headers', () => {
  it('every kind of response carries a CSP, nosniff and a referrer policy', async () => {
    const seen: string[] = [];
    for (const [name, pending] of responses()) {
      const res = await pending;
      seen.push(name);
      expect({ name, serverError: res.status >= 500 }).toEqual({ name, serverError: false });
      expect({ name, csp: header(res, 'content-security-policy').includes("default-src 'self'") }).toEqual({ name, csp: true });
      expect({ name, nosniff: header(res, 'x-content-type-options') }).toEqual({ name, nosniff: 'nosniff' });
      expect({ name, referrer: header(res, 'referrer-policy') }).toEqual({
        name,
        referrer: expect.stringMatching(/^(no-referrer|same-origin|strict-origin(-when-cross-origin)?)$/),
      });
    }
    // The built asset is part of the check whenever the web app is built.
    if (fs.existsSync(path.join(__dirname, '..', '..', 'cms', 'public', 'build', 'app'))) expect(seen.some((s) => s.startsWith('/build/'))).toBe(true);
  });

  it('only /player/* may be framed by other sites', async () => {
    for (const [name, pending] of responses()) {
      const res = await pending;
      const ancestors = frameAncestors(res);
      const xfo = header(res, 'x-frame-options').toUpperCase();
      if (name.startsWith('/player/')) {
        expect({ name, xfo }).toEqual({ name, xfo: '' });
        expect({ name, ancestors: ancestors ?? '*' }).toEqual({ name, ancestors: '*' });
      } else {
        expect({ name, refusesFraming: ['SAMEORIGIN', 'DENY'].includes(xfo) && (ancestors === "'self'" || ancestors === "'none'") }).toEqual({
          name,
          refusesFraming: true,
        });
      }
    }
  });

  it('the player page takes stylesheets and fonts from our own origin only', async () => {
    for (const url of [`/player/${reference}`, '/player/unknown-funnel']) {
      const res = await html(url);
      const csp = header(res, 'content-security-policy');
      const sources = (name: string) => new RegExp(`(?:^|;)\\s*${name}\\s+([^;]+)`).exec(csp)?.[1]?.trim().split(/\s+/) ?? null;
      expect({ url, fonts: sources('font-src') }).toEqual({ url, fonts: ["'self'"] });
      expect({ url, styles: sources('style-src') }).toEqual({ url, styles: ["'self'", "'unsafe-inline'"] });
      expect({ url, thirdPartyFontHost: /googleapis|gstatic|typekit|fonts\.|bunny|https?:\/\/[^\s;]*font/i.test(csp) }).toEqual({
        url,
        thirdPartyFontHost: false,
      });
      // Nor does the page itself link a stylesheet anywhere else.
      for (const [, href] of res.text.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)) expect(href).toMatch(/^\/build\//);
    }
  });

  it('serves nothing outside the build folder, however the path is spelled', async () => {
    const { hostname, port } = new URL(baseUrl());
    // Raw paths: an HTTP client library would normalise the dots away.
    const raw = (p: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ hostname, port, path: p, headers: { 'X-Forwarded-For': client().ip } }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const p of [
      '/build/../../package.json',
      '/build/app/../../../package.json',
      '/build/%2e%2e/%2e%2e/package.json',
      '/build/..%2f..%2f..%2fpackage.json',
      '/build/..%5c..%5c..%5cpackage.json',
      '/build/%2e%2e/%2e%2e/%2e%2e/.env',
      '/player/..%2f..%2fpackage.json',
    ]) {
      const res = await raw(p);
      expect({ p, status: res.status < 500, leaked: /"name":\s*"@?branchify|"dependencies"|JWT_SECRET/.test(res.body) }).toEqual({
        p,
        status: true,
        leaked: false,
      });
    }
  });
});

describe('CORS', () => {
  it('is closed to other origins', async () => {
    const read = await client().get('/api/customizations').set('Origin', 'https://evil.example');
    expect(header(read, 'access-control-allow-origin')).not.toContain('evil.example');
    expect(header(read, 'access-control-allow-origin')).not.toBe('*');
    const preflight = await request(baseUrl())
      .options('/api/auth/refresh-token')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(header(preflight, 'access-control-allow-origin')).not.toContain('evil.example');
    // A look-alike of a trusted origin is another origin.
    const lookalike = await client().get('/api/customizations').set('Origin', 'http://localhost:1337.evil.example');
    expect(header(lookalike, 'access-control-allow-origin')).not.toContain('evil.example');
  });

  it('answers the app’s own origin (PUBLIC_URL) and the CORS_ORIGINS, with credentials', async () => {
    const trusted = ['http://localhost:1337', ...(process.env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim())].filter(Boolean);
    expect(trusted.length).toBeGreaterThan(1);
    for (const origin of trusted) {
      const res = await client().get('/api/customizations').set('Origin', origin);
      expect({ origin, allowed: header(res, 'access-control-allow-origin') }).toEqual({ origin, allowed: origin });
      expect(header(res, 'access-control-allow-credentials')).toBe('true');
      const preflight = await request(baseUrl()).options('/api/auth/refresh-token').set('Origin', origin).set('Access-Control-Request-Method', 'POST');
      expect({ origin, allowed: header(preflight, 'access-control-allow-origin') }).toEqual({ origin, allowed: origin });
    }
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax and scoped to /api/auth wherever it is set (register, login, refresh)', async () => {
    const user = await registerUser();
    const login = await client().post('/api/auth/login', { email: user.email, password: PASSWORD });
    const cookieOf = (res: { headers: Record<string, unknown> }) =>
      (res.headers['set-cookie'] as string[] | undefined)?.find((c) => c.startsWith('branchify_refresh='));
    const refreshed = await client().post('/api/auth/refresh-token').set('Cookie', cookieOf(login)!.split(';')[0]!);
    const registered = await client().post('/api/auth/register', {
      first_name: 'Cookie',
      last_name: 'Check',
      email: `cookie-${Date.now()}@example.test`,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    for (const [name, res] of [
      ['login', login],
      ['refresh', refreshed],
      ['register', registered],
    ] as const) {
      const cookie = cookieOf(res);
      expect({ name, cookie: Boolean(cookie) }).toEqual({ name, cookie: true });
      expect(cookie).toMatch(/;\s*httponly/i);
      expect(cookie).toMatch(/;\s*samesite=lax/i);
      expect(cookie).toMatch(/;\s*path=\/api\/auth(;|$)/i);
      // The token never appears in a body next to the cookie.
      expect(res.text).not.toContain(cookie!.split(';')[0]!.slice('branchify_refresh='.length));
    }
  });
});
