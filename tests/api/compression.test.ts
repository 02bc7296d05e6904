import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { COMPRESS_MIN_BYTES } from '@branchify/shared/node';
import { baseUrl, newIp } from './support/http';
import { addVideo, createFunnel, freePlan, subscribedUser, twoVideoDocument } from './support/content';
import { adminSession, type Session } from './support/users';

const BUILD_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'build');
const UPLOADS_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');

/** A response as it travelled: Node's http client neither asks for nor decodes a coding. */
interface Wire {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const wire = (method: 'GET' | 'HEAD', url: string, headers: Record<string, string> = {}): Promise<Wire> =>
  new Promise((resolve, reject) => {
    const req = http.request(new URL(url, baseUrl()), { method, headers: { 'X-Forwarded-For': newIp(), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

/** The body with its content coding undone. */
const decoded = (res: Wire): Buffer => {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return zlib.brotliDecompressSync(res.body);
  if (coding === 'gzip') return zlib.gunzipSync(res.body);
  expect(coding).toBeUndefined();
  return res.body;
};

const varies = (res: Wire): boolean => /(^|,)\s*accept-encoding\s*(,|$)/i.test(String(res.headers.vary ?? ''));

/** A Content-Length, when sent, is the length of the bytes on the wire. */
const expectLength = (res: Wire) => {
  if (res.headers['content-length'] !== undefined) expect(Number(res.headers['content-length'])).toBe(res.body.length);
};

/**
 * Asks for `url` without Accept-Encoding, with `identity`, with `br, gzip`, with `gzip` and with
 * br refused: plain bytes for the first two, br, gzip and gzip for the others, each decoding to the
 * plain bytes under the same type, with Vary: Accept-Encoding. Returns the answers by coding.
 */
const expectNegotiated = async (url: string, headers: Record<string, string> = {}) => {
  const plain = await wire('GET', url, headers);
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.length).toBeGreaterThanOrEqual(COMPRESS_MIN_BYTES);
  expectLength(plain);

  const identity = await wire('GET', url, { ...headers, 'Accept-Encoding': 'identity' });
  expect(identity.headers['content-encoding']).toBeUndefined();
  expect(identity.body.equals(plain.body)).toBe(true);

  const answers = {
    br: await wire('GET', url, { ...headers, 'Accept-Encoding': 'br, gzip' }),
    gzip: await wire('GET', url, { ...headers, 'Accept-Encoding': 'gzip' }),
    noBr: await wire('GET', url, { ...headers, 'Accept-Encoding': 'br;q=0, gzip, deflate' }),
  };
  expect(answers.br.headers['content-encoding']).toBe('br');
  expect(answers.gzip.headers['content-encoding']).toBe('gzip');
  expect(answers.noBr.headers['content-encoding']).toBe('gzip');
  for (const res of [plain, identity, ...Object.values(answers)]) {
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(plain.headers['content-type']);
    expect(varies(res)).toBe(true);
    expectLength(res);
    expect(decoded(res).equals(plain.body)).toBe(true);
  }
  expect(answers.br.body.length).toBeLessThan(plain.body.length);
  return { plain, ...answers };
};

/** HEAD sends the headers a GET in the same coding sends, and no body. */
const expectHead = async (url: string, get: Wire, acceptEncoding: string, headers: Record<string, string> = {}) => {
  const head = await wire('HEAD', url, { ...headers, 'Accept-Encoding': acceptEncoding });
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);
  for (const name of ['content-encoding', 'content-type', 'content-length', 'etag', 'vary']) expect(head.headers[name]).toBe(get.headers[name]);
};

/** Each coding has its own ETag, and a revalidation of the compressed one is answered 304. */
const expectRevalidated = async (url: string, answers: { plain: Wire; br: Wire; gzip: Wire }, headers: Record<string, string> = {}) => {
  const tags = [answers.plain, answers.br, answers.gzip].map((res) => res.headers.etag);
  for (const tag of tags) expect(tag).toBeTruthy();
  expect(new Set(tags).size).toBe(3);
  const fresh = await wire('GET', url, { ...headers, 'Accept-Encoding': 'br, gzip', 'If-None-Match': answers.br.headers.etag! });
  expect(fresh.status).toBe(304);
  expect(fresh.body.length).toBe(0);
  expect(fresh.headers.etag).toBe(answers.br.headers.etag);
  expect(varies(fresh)).toBe(true);
  // The br copy's tag does not stand for the gzip one.
  const other = await wire('GET', url, { ...headers, 'Accept-Encoding': 'gzip', 'If-None-Match': answers.br.headers.etag! });
  expect(other.status).toBe(200);
  expect(other.headers['content-encoding']).toBe('gzip');
};

/** The player's built entry script and stylesheet, from Vite's manifest. */
const playerEntry = (): { file: string; css: string[] } => {
  const manifest = JSON.parse(fs.readFileSync(path.join(BUILD_DIR, 'player', '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; css?: string[] }
  >;
  return { file: manifest['src/page/main.tsx']!.file, css: manifest['src/page/main.tsx']!.css ?? [] };
};

describe('build assets travel precompressed', () => {
  it('sends a hashed script in br or gzip as the client accepts, plain otherwise, HEAD alike', async () => {
    const url = `/build/player/${playerEntry().file}`;
    const answers = await expectNegotiated(url);
    expect(answers.br.headers['content-type']).toMatch(/javascript/);
    expect(answers.br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The build's own copies, at the best compression, not a per-request one.
    expect(answers.br.body.equals(fs.readFileSync(path.join(BUILD_DIR, 'player', `${playerEntry().file}.br`)))).toBe(true);
    await expectHead(url, answers.br, 'br, gzip');
    await expectHead(url, answers.gzip, 'gzip');
    await expectHead(url, answers.plain, '');
  });

  it("sends the web app's script chunks and the player's stylesheet compressed", async () => {
    const chunk = fs
      .readdirSync(path.join(BUILD_DIR, 'app', 'assets'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => ({ name, size: fs.statSync(path.join(BUILD_DIR, 'app', 'assets', name)).size }))
      .sort((a, b) => b.size - a.size)[0]!;
    await expectNegotiated(`/build/app/assets/${chunk.name}`);
    const css = await expectNegotiated(`/build/player/${playerEntry().css[0]!}`);
    expect(css.br.headers['content-type']).toMatch(/^text\/css/);
  });

  it('revalidates a stable URL (a font stylesheet) per coding', async () => {
    const sheet = fs
      .readdirSync(path.join(BUILD_DIR, 'fonts'))
      .filter((name) => name.endsWith('.css'))
      .find((name) => fs.statSync(path.join(BUILD_DIR, 'fonts', name)).size >= COMPRESS_MIN_BYTES)!;
    const url = `/build/fonts/${sheet}`;
    const answers = await expectNegotiated(url);
    expect(answers.br.headers['cache-control']).toBe('no-cache');
    await expectRevalidated(url, answers);
    await expectHead(url, answers.br, 'br, gzip');
  });

  it('sends a file under 1 KB as it is', async () => {
    const small = fs
      .readdirSync(path.join(BUILD_DIR, 'fonts'))
      .find((name) => name.endsWith('.css') && fs.statSync(path.join(BUILD_DIR, 'fonts', name)).size < COMPRESS_MIN_BYTES)!;
    const res = await wire('GET', `/build/fonts/${small}`, { 'Accept-Encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(fs.readFileSync(path.join(BUILD_DIR, 'fonts', small)))).toBe(true);
  });

  describe('with copies written here', () => {
    const name = `test-compress-${process.pid}.abc123.js`;
    const file = path.join(BUILD_DIR, name);
    const content = Buffer.from(`console.log(${JSON.stringify('compressible '.repeat(300))});\n`);
    beforeAll(() => {
      fs.writeFileSync(file, content);
      fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content));
    });
    afterAll(() => {
      for (const suffix of ['', '.br', '.gz']) fs.rmSync(file + suffix, { force: true });
    });

    it('never sends a copy as a file of its own', async () => {
      for (const suffix of ['.br', '.gz', '.BR']) {
        const res = await wire('GET', `/build/${name}${suffix}`, { 'Accept-Encoding': 'br, gzip' });
        expect(res.status).toBe(404);
        expect(res.headers['content-encoding']).toBeUndefined();
      }
    });

    it('honours weights: a refused coding is not sent, `*` stands for the others', async () => {
      const coding = async (acceptEncoding: string) => (await wire('GET', `/build/${name}`, { 'Accept-Encoding': acceptEncoding })).headers['content-encoding'];
      expect(await coding('gzip;q=1, br;q=0.5')).toBe('gzip');
      expect(await coding('*')).toBe('br');
      expect(await coding('br;q=0, *')).toBe('gzip');
      expect(await coding('deflate')).toBeUndefined();
    });

    it('leaves a copy older than its file unused', async () => {
      const newer = Buffer.from(`console.log(${JSON.stringify('rebuilt '.repeat(300))});\n`);
      fs.writeFileSync(file, newer);
      const past = new Date(Date.now() - 60_000);
      fs.utimesSync(`${file}.br`, past, past);
      fs.utimesSync(`${file}.gz`, past, past);
      const res = await wire('GET', `/build/${name}`, { 'Accept-Encoding': 'br, gzip' });
      expect(res.status).toBe(200);
      expect(decoded(res).equals(newer)).toBe(true);
    });
  });
});

describe('pages and JSON compressed on the fly', () => {
  it("compresses the web app's page on a browser navigation when it is 1 KB or more, with an ETag per coding", async () => {
    const html = { Accept: 'text/html,application/xhtml+xml' };
    const index = fs.readFileSync(path.join(BUILD_DIR, 'app', 'index.html'));
    if (index.length >= COMPRESS_MIN_BYTES) {
      const answers = await expectNegotiated('/login', html);
      expect(answers.br.headers['cache-control']).toBe('no-cache');
      await expectRevalidated('/login', answers, html);
      await expectHead('/login', answers.br, 'br, gzip', html);
    } else {
      // Smaller than the threshold: sent as it is, whatever the client accepts.
      const res = await wire('GET', '/login', { ...html, 'Accept-Encoding': 'br, gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.equals(index)).toBe(true);
      expect(varies(res)).toBe(true);
      const again = await wire('GET', '/login', { ...html, 'Accept-Encoding': 'br, gzip', 'If-None-Match': res.headers.etag! });
      expect(again.status).toBe(304);
    }
  });

  it('compresses the OpenAPI document', async () => {
    const answers = await expectNegotiated('/api/branchify/openapi.json');
    expect(answers.br.headers['content-type']).toMatch(/application\/json/);
  });

  it('leaves a body under 1 KB uncompressed', async () => {
    const res = await wire('GET', '/api/does-not-exist', { Accept: 'application/json', 'Accept-Encoding': 'br, gzip' });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ success: false });
  });

  describe('with a published funnel', () => {
    let owner: Session;
    let reference: string;

    beforeAll(async () => {
      const admin = await adminSession();
      owner = await subscribedUser(admin, (await freePlan(admin)).id);
      const a = await addVideo(owner, { title: 'Intro' });
      const b = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Second' });
      for (let i = 0; i < 4; i += 1) await addVideo(owner, { title: `Library clip ${i} with a title long enough to fill a page` });
      const funnel = await createFunnel(owner, { description: 'A funnel whose pages travel compressed. '.repeat(10) });
      const saved = await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), owner.token);
      expect(saved.status).toBe(200);
      reference = funnel.identifier;
    });

    it('compresses an /api list of 1 KB or more', async () => {
      await expectNegotiated('/api/videos', { Accept: 'application/json', Authorization: `Bearer ${owner.token}` });
    });

    it('sends the player payload in the coding asked for, each with its own ETag, HEAD alike', async () => {
      const url = `/api/funnels/${reference}/player`;
      const answers = await expectNegotiated(url, { Accept: 'application/json' });
      expect(JSON.parse(answers.plain.body.toString('utf8'))).toMatchObject({ success: true, data: { identifier: reference } });
      expect(answers.br.headers['cache-control']).toMatch(/public/);
      await expectRevalidated(url, answers);
      await expectHead(url, answers.br, 'br, gzip');
    });

    it('sends the /player page compressed, its security headers kept', async () => {
      const url = `/player/${reference}`;
      const html = { Accept: 'text/html' };
      const answers = await expectNegotiated(url, html);
      expect(answers.br.headers['content-type']).toMatch(/text\/html/);
      for (const res of [answers.plain, answers.br, answers.gzip]) {
        expect(res.headers['content-security-policy']).toMatch(/frame-ancestors \*/);
        expect(res.headers['x-frame-options']).toBeUndefined();
        expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      }
      expect(decoded(answers.br).toString('utf8')).toContain(`"identifier":"${reference}"`);
      await expectRevalidated(url, answers, html);
      await expectHead(url, answers.br, 'br, gzip', html);
    });
  });
});

describe('files under /uploads travel as stored', () => {
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  // Compressible content under names a browser fetches whole or by ranges.
  const files = {
    [`test-compress-${tag}.mp4`]: Buffer.from('0123456789abcdef'.repeat(512)),
    [`test-compress-${tag}.svg`]: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(600)}</svg>`),
  };
  beforeAll(() => {
    fs.mkdirSync(UPLOADS_DIR, { recursive: true });
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(UPLOADS_DIR, name), content);
  });
  afterAll(() => {
    for (const name of Object.keys(files)) fs.rmSync(path.join(UPLOADS_DIR, name), { force: true });
  });

  it('sends a download, a video or an SVG uncompressed, whole or by a byte range', async () => {
    for (const [name, content] of Object.entries(files)) {
      const whole = await wire('GET', `/uploads/${name}`, { 'Accept-Encoding': 'br, gzip' });
      expect(whole.status).toBe(200);
      expect(whole.headers['content-encoding']).toBeUndefined();
      expect(whole.body.equals(content)).toBe(true);
      const part = await wire('GET', `/uploads/${name}`, { 'Accept-Encoding': 'br, gzip', Range: 'bytes=100-1299' });
      expect(part.status).toBe(206);
      expect(part.headers['content-encoding']).toBeUndefined();
      expect(part.body.equals(content.subarray(100, 1300))).toBe(true);
    }
  });
});
