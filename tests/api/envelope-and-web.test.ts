import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { MESSAGES } from '@branchify/shared';
import { baseUrl, client } from './support/http';

const BUILD_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'build');

describe('the /api envelope', () => {
  it('answers unknown /api routes with a JSON 404', async () => {
    for (const p of ['/api/does-not-exist', '/api', '/api/auth/nope']) {
      const res = await client().get(p);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toEqual({ success: false, message: 'This API route does not exist.' });
    }
  });

  it('answers a malformed JSON body with 400 and no stack trace', async () => {
    const res = await request(baseUrl())
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .set('X-Forwarded-For', '10.200.0.1')
      .send('{"email": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: 'The request body is not valid JSON.' });
    expect(res.text).not.toMatch(/at .*\.js:\d+/);
  });

  it('refuses a body carrying a __proto__ key before anything reads it', async () => {
    for (const body of ['{"__proto__": {"is_admin": true}, "email": "a@b.test", "password": "x"}', '{"email": {"__proto__": ""}}']) {
      const res = await request(baseUrl()).post('/api/auth/login').set('Content-Type', 'application/json').set('X-Forwarded-For', '10.200.0.2').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: MESSAGES.forbiddenBodyKey });
    }
  });
});

describe('serving the web app', () => {
  it('answers browser navigations outside /api and /cms with the single-page app', async () => {
    for (const p of ['/', '/login', '/funnels/12/edit', '/admin/users', '/settings/select-plan']) {
      const res = await request(baseUrl()).get(p).set('Accept', 'text/html,application/xhtml+xml');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toMatch(/<html/i);
    }
  });

  it("leaves Strapi's admin API its JSON calls under /admin", async () => {
    const res = await request(baseUrl()).get('/admin/init').set('Accept', 'application/json');
    expect(res.headers['content-type']).toMatch(/json/);
  });

  it('serves /build assets with immutable caching and 404s missing ones', async () => {
    fs.mkdirSync(BUILD_DIR, { recursive: true });
    const name = `test-asset-${process.pid}.abc123.js`;
    const file = path.join(BUILD_DIR, name);
    fs.writeFileSync(file, 'console.log("hi");');
    try {
      const res = await request(baseUrl()).get(`/build/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.text).toBe('console.log("hi");');
    } finally {
      fs.rmSync(file, { force: true });
    }
    expect((await request(baseUrl()).get('/build/missing.js')).status).toBe(404);
    expect((await request(baseUrl()).get('/build/..%2f..%2fpackage.json')).status).toBe(404);
  });

  it('serves font stylesheets revalidated (their URL is stable) and font files as font/woff2, cached for good', async () => {
    const fonts = path.join(BUILD_DIR, 'fonts');
    fs.mkdirSync(path.join(fonts, 'files'), { recursive: true });
    const css = path.join(fonts, `test-font-${process.pid}.css`);
    const woff2 = path.join(fonts, 'files', `test-font-${process.pid}.0123456789.woff2`);
    fs.writeFileSync(css, `@font-face { font-family: 'Test'; src: url(./files/${path.basename(woff2)}) format('woff2'); }`);
    fs.writeFileSync(woff2, Buffer.from('wOF2test'));
    try {
      const sheet = await request(baseUrl()).get(`/build/fonts/${path.basename(css)}`);
      expect(sheet.status).toBe(200);
      expect(sheet.headers['content-type']).toMatch(/^text\/css/);
      expect(sheet.headers['cache-control']).toBe('no-cache');
      expect(sheet.headers.etag).toBeTruthy();
      const again = await request(baseUrl())
        .get(`/build/fonts/${path.basename(css)}`)
        .set('If-None-Match', sheet.headers.etag!);
      expect(again.status).toBe(304);

      const font = await request(baseUrl()).get(`/build/fonts/files/${path.basename(woff2)}`);
      expect(font.status).toBe(200);
      expect(font.headers['content-type']).toBe('font/woff2');
      expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    } finally {
      fs.rmSync(css, { force: true });
      fs.rmSync(woff2, { force: true });
    }
  });

  it('reserves /player/{reference} for the player', async () => {
    const res = await request(baseUrl()).get('/player/abc').set('Accept', 'text/html');
    expect(res.status).toBe(404);
    expect(res.text).toMatch(/This funnel is not available/);
  });

  it("keeps Strapi's health check", async () => {
    expect((await request(baseUrl()).get('/_health')).status).toBe(204);
  });

  it('answers the liveness and readiness probes (a browser navigation included)', async () => {
    const live = await request(baseUrl()).get('/_live').set('Accept', 'text/html');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ success: true, data: { status: 'live' } });
    const ready = await request(baseUrl()).get('/_ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ success: true, data: { status: 'ready' } });
    expect(ready.headers['cache-control']).toBe('no-store');
  });
});

describe('cross-origin requests', () => {
  it('grants credentialed CORS to the app origin only', async () => {
    const foreign = await request(baseUrl())
      .options('/api/auth/refresh-token')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(foreign.headers['access-control-allow-origin']).not.toBe('https://evil.example');
    expect(foreign.headers['access-control-allow-origin']).not.toBe('*');
    const own = await request(baseUrl()).options('/api/auth/refresh-token').set('Origin', 'http://localhost:1337').set('Access-Control-Request-Method', 'POST');
    expect(own.headers['access-control-allow-origin']).toBe('http://localhost:1337');
    expect(own.headers['access-control-allow-credentials']).toBe('true');
  });
});
