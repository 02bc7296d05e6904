// @serial: changes branding for the whole install (tests/harness/groups.js)
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { CONTENT_LIMITS, MESSAGES, messageTemplates } from '@branchify/shared';
import { parseEnv } from '@branchify/shared/node';
import { cmsOperatorJwt } from '../api/support/cms';
import { baseUrl, newIp, refreshCookie } from '../api/support/http';
import { eventually } from '../api/support/stripe';
import { login, registerUser, uniqueEmail, verifiedUser, type Session } from '../api/support/users';
import { privatePngChunk } from '../api/support/png';
import { registered } from './registered-routes';
import { record } from './summary';
import { useApiSuite } from '../api/support/suite';

/**
 * What bodies the server reads, where, and what they leave behind: /api writes take JSON only
 * (multipart on the upload routes, anything raw on the Stripe webhook); multipart is parsed only on
 * the upload routes, after their authentication, within limits, into a temp folder that is empty
 * again once the request is over, whatever its outcome; the auth endpoints refuse other sites.
 */

const CONFIG = parseEnv(process.env);
const UPLOAD_TMP = path.resolve(CONFIG.UPLOAD_TMP_DIR);
const PUBLIC_ORIGIN = new URL(CONFIG.PUBLIC_URL).origin;
const PARTNER_ORIGIN = new URL(CONFIG.CORS_ORIGINS![0]!).origin;
const KB = 1024;
const MB = 1024 * KB;

const UPLOAD_ROUTES = new Set([
  'POST /api/uploads/images',
  'POST /api/funnels/import',
  'PUT /api/videos/:id/poster',
  'POST /api/videos/:id/captions',
  'POST /api/admin/customizations',
  'POST /api/admin/customizations/images',
]);
const RAW_ROUTE = 'POST /api/stripe/webhook';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// ---------------------------------------------------------------------------------------------
// Requests over node:http, so a body can be cut short, held back or sent in chunks.

const target = () => new URL(baseUrl());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever JSON the server answered
  body: any;
}

interface RawOptions {
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Send only this many bytes of the body (the headers announce all of it, or none with `chunked`) and wait for the answer. */
  hold?: number;
  /** No Content-Length: the body goes in chunks of this size. */
  chunked?: number;
}

/**
 * One request. With `hold`, an answer proves the server decided without the rest of the body
 * (a server that waited for it would never answer).
 */
const raw = (method: string, url: string, options: RawOptions = {}) =>
  new Promise<Answer>((resolve, reject) => {
    const body = Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body ?? '');
    const headers: Record<string, string> = { 'x-forwarded-for': newIp(), accept: 'application/json', ...options.headers };
    if (options.chunked === undefined) headers['content-length'] = String(body.length);
    else headers['transfer-encoding'] = 'chunked';
    let answered = false;
    // The path goes out as written (a URL object would resolve its dots and slashes).
    const req = http.request({ host: target().hostname, port: target().port, path: url, method, headers }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    // Once answered, the server may close while the rest is still being written (EPIPE): that is its right.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (options.hold !== undefined) {
      req.write(body.subarray(0, options.hold));
    } else if (options.chunked !== undefined) {
      const size = options.chunked;
      const pump = (at: number): void => {
        if (answered || req.destroyed) return;
        if (at >= body.length) {
          req.end();
          return;
        }
        if (req.write(body.subarray(at, at + size))) setImmediate(() => pump(at + size));
        else req.once('drain', () => pump(at + size));
      };
      pump(0);
    } else {
      req.end(body);
    }
  });

/** Sends the first `bytes` of a body, waits until the server has started storing it, then cuts the connection. */
const abortMidBody = async (url: string, marker: string, headers: Record<string, string>, body: Buffer, bytes: number) => {
  const req = http.request({
    host: target().hostname,
    port: target().port,
    path: url,
    method: 'POST',
    headers: { 'x-forwarded-for': newIp(), accept: 'application/json', 'content-length': String(body.length), ...headers },
  });
  req.on('error', () => undefined);
  await new Promise<void>((resolve) => req.write(body.subarray(0, bytes), () => resolve()));
  const started = await eventually(
    async () => leftovers(marker),
    (files) => files.length > 0,
  );
  req.destroy();
  return started.length;
};

// ---------------------------------------------------------------------------------------------
// Bodies.

interface Part {
  name: string;
  filename?: string;
  type?: string;
  content: Buffer | string;
}

const multipart = (parts: Part[]) => {
  const boundary = `----bodies${randomUUID().replace(/-/g, '')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.filename ? `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
};

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);

/** A real PNG that carries `marker` near its start (a private chunk decoders skip), padded to `total` bytes. */
const pngWith = (marker: string, total = PNG.length + 12 + marker.length): Buffer => {
  const data = Buffer.concat([Buffer.from(marker), Buffer.alloc(total - PNG.length - 12 - marker.length, 0x20)]);
  // After the signature and IHDR (33 bytes), so the marker arrives with the first bytes of the file.
  return Buffer.concat([PNG.subarray(0, 33), privatePngChunk(data), PNG.subarray(33)]);
};

const marked = () => `bodies-marker-${randomUUID()}`;

// ---------------------------------------------------------------------------------------------
// What is left on disk.

/** Every file under the upload temp folder (none once no request is running). */
const uploadTmpFiles = (dir = UPLOAD_TMP): string[] => {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [`${e.name}/`, ...uploadTmpFiles(path.join(dir, e.name))] : [e.name]));
};

const containsMarker = (file: string, marker: string): boolean => {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() && stat.size <= 64 * MB && fs.readFileSync(file).includes(marker);
  } catch {
    return false; // gone while looking
  }
};

/**
 * Files holding `marker` in the places a multipart parser may write: the upload temp folder and
 * the system temp folder (where formidable writes unless told otherwise), one level deep for
 * folders made or changed in the last ten minutes.
 */
const leftovers = (marker: string): string[] => {
  const found: string[] = [];
  const since = Date.now() - 10 * 60 * 1000;
  const scan = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      let mtime = 0;
      try {
        mtime = fs.statSync(full).mtimeMs;
      } catch {
        continue;
      }
      if (mtime < since) continue;
      if (entry.isDirectory() && depth > 0) scan(full, depth - 1);
      else if (entry.isFile() && containsMarker(full, marker)) found.push(full);
    }
  };
  scan(UPLOAD_TMP, 3);
  scan(os.tmpdir(), 1);
  return found;
};

/** After a request: nothing of it left anywhere, and the upload temp folder empty. */
const expectNothingLeft = async (what: string, marker: string) => {
  const left = await eventually(
    async () => ({ files: leftovers(marker), tmp: uploadTmpFiles() }),
    (l) => l.files.length === 0 && l.tmp.length === 0,
  );
  expect({ what, ...left }).toEqual({ what, files: [], tmp: [] });
};

// ---------------------------------------------------------------------------------------------

const suite = useApiSuite();
let creator: Session;

beforeAll(async () => {
  creator = await verifiedUser();
});

const bearer = (session: Session) => ({ authorization: `Bearer ${session.token}` });

/** The four kinds of body a browser form or a script sends, each carrying `marker`. */
const bodiesOf = (marker: string) => {
  const files = multipart([
    { name: 'probe', content: marker },
    { name: 'image', filename: 'probe.txt', type: 'text/plain', content: `${marker}\n` },
  ]);
  return {
    json: { type: 'application/json', body: JSON.stringify({ probe: marker }) },
    form: { type: 'application/x-www-form-urlencoded', body: `probe=${marker}` },
    multipart: { type: files.type, body: files.body },
    text: { type: 'text/plain', body: `probe ${marker}` },
  } as const;
};
type Kind = keyof ReturnType<typeof bodiesOf>;
const KINDS: Kind[] = ['json', 'form', 'multipart', 'text'];

const accepts = (key: string, kind: Kind): boolean => {
  if (key === RAW_ROUTE) return true;
  if (kind === 'json') return true;
  return kind === 'multipart' && UPLOAD_ROUTES.has(key);
};

/** The refusal a route answers a body it does not take with. */
const refusalOf = (key: string, url: string) => {
  const message = UPLOAD_ROUTES.has(key) ? MESSAGES.bodyMustBeJsonOrFiles : MESSAGES.bodyMustBeJson;
  // The integrator API answers in Strapi's REST shape, the rest of /api in ours.
  return url.startsWith('/api/branchify/')
    ? { data: null, error: { status: 415, name: 'UnsupportedMediaTypeError', message, details: {} } }
    : { success: false, message };
};

describe('which bodies /api takes', () => {
  it('every /api write route takes JSON only (multipart on the upload routes, anything raw on the Stripe webhook); any other body is a 415', async () => {
    const writes = registered().api.filter((key) => WRITES.has(key.split(' ')[0]!));
    expect(writes.length).toBeGreaterThan(50);
    const marker = marked();
    const bodies = bodiesOf(marker);
    const failures: string[] = [];
    let cells = 0;
    for (const key of writes) {
      const [method, pattern] = key.split(' ') as [string, string];
      const url = pattern.replace(/:(\w+)/g, (_m, name: string) => (name === 'uid' ? 'plugin::users-permissions.user' : '999999'));
      for (const kind of KINDS) {
        // Anonymous, and signed in as a creator (who is refused on admin routes before any handler could act).
        for (const caller of kind === 'json' ? [null] : [null, creator]) {
          const res = await raw(method, url, { headers: { 'content-type': bodies[kind].type, ...(caller ? bearer(caller) : {}) }, body: bodies[kind].body });
          cells += 1;
          const who = caller ? 'creator' : 'anonymous';
          if (res.status >= 500) failures.push(`${key} ${kind} as ${who}: server error ${res.status}`);
          else if (accepts(key, kind)) {
            if (res.status === 415) failures.push(`${key} ${kind} as ${who}: refused a body it takes`);
          } else if (res.status !== 415 || JSON.stringify(res.body) !== JSON.stringify(refusalOf(key, url))) {
            failures.push(`${key} ${kind} as ${who}: expected 415 ${JSON.stringify(refusalOf(key, url))}, got ${res.status} ${res.text.slice(0, 120)}`);
          }
        }
      }
    }
    // The webhook reads every body raw and checks its signature on those bytes.
    for (const kind of KINDS) {
      const res = await raw('POST', '/api/stripe/webhook', {
        headers: { 'content-type': bodies[kind].type, 'stripe-signature': 't=1,v1=00' },
        body: bodies[kind].body,
      });
      expect({ kind, status: res.status, body: res.body }).toEqual({ kind, status: 400, body: { success: false, message: 'Invalid Stripe signature.' } });
    }
    record('content-types', cells);
    console.log(`content types: ${writes.length} write routes × ${KINDS.length} kinds of body, ${cells} requests`);
    expect(failures).toEqual([]);
    await expectNothingLeft('the content-type matrix', marker);
  });

  it('refuses a multipart body on every other route before reading it, anonymous or signed in, /api or not', async () => {
    const marker = marked();
    const { type, body } = bodiesOf(marker).multipart;
    // A large body announced, its first bytes sent: only a server that did not wait for the rest answers.
    const big = Buffer.concat([body.subarray(0, body.length - 50), Buffer.alloc(40 * MB, 0x61), body.subarray(body.length - 50)]);
    const targets: Array<[string, string, Record<string, string>]> = [
      ['POST', '/api/auth/login', {}],
      ['POST', '/api/funnels', bearer(creator)],
      ['PUT', '/api/funnels/1', bearer(creator)],
      ['POST', '/api/admin/plans', bearer(suite.admin)],
      ['GET', '/api/plans', {}],
      ['POST', '/api/upload', {}],
      ['POST', '/api/branchify/subscriptions', {}],
      ['POST', '/api/does-not-exist', {}],
      ['POST', '/admin/login', {}],
      ['POST', '/content-manager/collection-types/plugin::users-permissions.user', {}],
      ['POST', '/login', {}],
      ['POST', '/player/abc', {}],
    ];
    for (const [method, url, headers] of targets) {
      const res = await raw(method, url, { headers: { 'content-type': type, ...headers }, body: big, hold: body.length });
      expect({ method, url, refused: res.status === 415 }).toEqual({ method, url, refused: true });
      expect(res.headers.connection).toBe('close');
      if (url.startsWith('/api/') && !url.startsWith('/api/branchify/')) expect(res.body).toEqual({ success: false, message: MESSAGES.bodyMustBeJson });
    }
    await expectNothingLeft('multipart refused before reading', marker);
  });

  it('refuses a JSON body over 1 MB with 413, and so does the webhook', async () => {
    const big = JSON.stringify({ email: 'x@example.test', password: 'y'.repeat(2 * MB) });
    for (const url of ['/api/auth/login', '/api/stripe/webhook']) {
      const res = await raw('POST', url, { headers: { 'content-type': 'application/json' }, body: big });
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 413, body: { success: false, message: MESSAGES.requestTooLarge } });
    }
  });

  it('judges the path as the router would read it (case, slashes, dots, percent-encoding)', async () => {
    const user = await verifiedUser();
    const marker = marked();
    const form = `email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(user.password)}`;
    const files = multipart([
      { name: 'email', content: user.email },
      { name: 'password', content: user.password },
      { name: 'image', filename: 'probe.txt', type: 'text/plain', content: marker },
    ]);
    for (const url of [
      '/API/Auth/Login',
      '/api/auth/login/',
      '/api//auth//login',
      '/api/auth/%6Cogin',
      '/api/./auth/login',
      '/api/x/../auth/login',
      '/Api/Auth/Login/',
    ]) {
      for (const [type, body] of [
        ['application/x-www-form-urlencoded', form],
        [files.type, files.body],
      ] as const) {
        const res = await raw('POST', url, { headers: { 'content-type': type }, body });
        expect({ url, type: type.split(';')[0], signedIn: res.status < 300 || /access_token/.test(res.text) }).toEqual({
          url,
          type: type.split(';')[0],
          signedIn: false,
        });
        // A path with an empty segment is no route's (404 before anything reads it); the others are /api's.
        const refusal = url.includes('//') ? 404 : 415;
        expect({ url, type: type.split(';')[0], status: res.status }).toEqual({ url, type: type.split(';')[0], status: refusal });
      }
    }
    await expectNothingLeft('path variants', marker);
  });
});

// ---------------------------------------------------------------------------------------------

describe('resources: multipart requests leave nothing on disk', () => {
  let scenarios = 0;
  afterAll(() => record('resources', scenarios));

  /** One multipart request to a route, then nothing of it on disk. */
  const check = async (
    what: string,
    url: string,
    parts: (marker: string) => Part[],
    headers: Record<string, string>,
    expected: number,
    options: RawOptions = {},
  ) => {
    const marker = marked();
    const { type, body } = multipart(parts(marker));
    const res = await raw('POST', url, { ...options, headers: { 'content-type': type, ...headers }, body });
    scenarios += 1;
    expect({ what, status: res.status }).toEqual({ what, status: expected });
    await expectNothingLeft(what, marker);
    return res;
  };

  const image = (marker: string, total?: number, field = 'image', name = 'button.png'): Part => ({
    name: field,
    filename: name,
    type: 'image/png',
    content: pngWith(marker, total),
  });

  it('after creators’ uploads: stored, refused, oversized, too many, anonymous, unverified', async () => {
    const url = '/api/uploads/images';
    const owner = await verifiedUser();
    const stored = await check('a stored image', url, (m) => [image(m)], bearer(owner), 201);
    expect(stored.body.data.url).toMatch(/^\/uploads\//);
    const svg = (m: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><!-- ${m} --><script>alert(1)</script><rect width="1" height="1"/></svg>`;
    await check(
      'an SVG cleaned before storing',
      url,
      (m) => [{ name: 'image', filename: 'a.svg', type: 'image/svg+xml', content: svg(m) }],
      bearer(owner),
      201,
    );
    await check(
      'a file that is not an image',
      url,
      (m) => [{ name: 'image', filename: 'a.png', type: 'image/png', content: `not a png ${m}` }],
      bearer(owner),
      422,
    );
    const tooLarge = await check('an image over the limit', url, (m) => [image(m, 2001 * KB)], bearer(owner), 422);
    expect(tooLarge.body).toEqual({
      success: false,
      message: messageTemplates.imageTooLarge(CONTENT_LIMITS.branchImageKb),
      errors: { image: [messageTemplates.imageTooLarge(CONTENT_LIMITS.branchImageKb)] },
    });
    await check('two images', url, (m) => [image(m), image(`${m}-2`)], bearer(owner), 422);
    await check('an image in another field', url, (m) => [image(m, undefined, 'file')], bearer(owner), 422);
    await check('an oversized text field', url, (m) => [{ name: 'note', content: `${m}${'x'.repeat(2 * MB)}` }, image(m)], bearer(owner), 413);
    await check('an oversized image sent in chunks (no Content-Length)', url, (m) => [image(m, 8 * MB)], bearer(owner), 422, { chunked: 64 * KB });
    await check('anonymous', url, (m) => [image(m)], {}, 401);
    const unverified = await registerUser();
    await check('unverified', url, (m) => [image(m)], bearer(unverified), 403);
  });

  it('refuses an oversized upload as it arrives, and an anonymous one before reading it', async () => {
    const url = '/api/uploads/images';
    const owner = await verifiedUser();
    const marker = marked();
    const { type, body } = multipart([image(marker, 40 * MB)]);
    // An image over its limit, in a body within the route's total: refused once the limit is passed, the rest unsent.
    const within = multipart([image(marker, 2500 * KB)]);
    // Without a length, the same whatever the body's size.
    for (const [what, request] of [
      ['announced within the total', { headers: { 'content-type': within.type, ...bearer(owner) }, body: within.body, hold: 2200 * KB }],
      ['sent in chunks', { headers: { 'content-type': type, ...bearer(owner) }, body, hold: 3 * MB, chunked: 64 * KB }],
    ] as Array<[string, RawOptions]>) {
      const over = await raw('POST', url, request);
      scenarios += 1;
      expect({ what, status: over.status, errors: over.body?.errors }).toEqual({
        what,
        status: 422,
        errors: { image: [messageTemplates.imageTooLarge(CONTENT_LIMITS.branchImageKb)] },
      });
      expect(over.headers.connection).toBe('close');
    }
    // More than the limit announced: refused before a byte is read.
    const announced = await raw('POST', url, { headers: { 'content-type': type, ...bearer(owner) }, body, hold: 0 });
    scenarios += 1;
    expect(announced.status).toBe(413);
    expect(announced.body).toEqual({ success: false, message: MESSAGES.requestTooLarge });
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }] as Array<Record<string, string>>) {
      const anonymous = await raw('POST', url, { headers: { 'content-type': type, ...headers }, body, hold: 1 * KB });
      scenarios += 1;
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.connection).toBe('close');
    }
    await expectNothingLeft('oversized and anonymous', marker);
  });

  it('after an upload cut off mid-body', async () => {
    const owner = await verifiedUser();
    const marker = marked();
    const { type, body } = multipart([image(marker, 1500 * KB)]);
    const started = await abortMidBody('/api/uploads/images', marker, { 'content-type': type, ...bearer(owner) }, body, 700 * KB);
    scenarios += 1;
    expect(started).toBeGreaterThan(0);
    await expectNothingLeft('an aborted upload', marker);
  });

  it('after the admin’s logo and favicon uploads', async () => {
    const before = (await suite.admin.http.get('/api/admin/customizations', suite.admin.token)).body.data;
    const stored: string[] = [];
    try {
      const logo = await check('a logo', '/api/admin/customizations/images', (m) => [image(m, undefined, 'app_logo', 'logo.png')], bearer(suite.admin), 200);
      stored.push(logo.body.data.app_logo_url);
      const form = await check(
        'the customization form with a favicon',
        '/api/admin/customizations',
        (m) => [{ name: 'app_name', content: before.app_name }, image(m, undefined, 'app_favicon', 'favicon.png')],
        bearer(suite.admin),
        200,
      );
      stored.push(form.body.data.app_favicon_url);
      const over = await check(
        'a favicon over the limit',
        '/api/admin/customizations/images',
        (m) => [image(m, 1001 * KB, 'app_favicon', 'big.png')],
        bearer(suite.admin),
        422,
      );
      expect(over.body.errors).toEqual({ app_favicon: [messageTemplates.imageTooLarge(1000)] });
      await check(
        'two logos',
        '/api/admin/customizations/images',
        (m) => [image(m, undefined, 'app_logo'), image(`${m}-2`, undefined, 'app_logo')],
        bearer(suite.admin),
        422,
      );
      await check('a creator', '/api/admin/customizations/images', (m) => [image(m, undefined, 'app_logo')], bearer(creator), 403);
    } finally {
      await suite.admin.http.post(
        '/api/admin/customizations',
        { app_logo_url: before.app_logo_url, app_favicon_url: before.app_favicon_url },
        suite.admin.token,
      );
      for (const url of stored.filter((u) => typeof u === 'string' && u.startsWith('/uploads/'))) {
        fs.rmSync(path.join(__dirname, '..', '..', 'cms', 'public', 'uploads', path.basename(url)), { force: true });
      }
    }
  });

  it('after uploads to the /cms media library and project settings', async () => {
    const jwt = await cmsOperatorJwt('Bodies');
    const operator = { authorization: `Bearer ${jwt}` };
    const stored = await check('a media library upload', '/upload', (m) => [image(m, undefined, 'files', 'library.png')], operator, 201);
    const [file] = stored.body as Array<{ id: number }>;
    expect((await raw('DELETE', `/upload/files/${file!.id}`, { headers: operator })).status).toBe(200);
    await check('anonymous', '/upload', (m) => [image(m, undefined, 'files')], {}, 401);
    await check('an anonymous project settings logo', '/admin/project-settings', (m) => [image(m, undefined, 'menuLogo')], {}, 401);
    await check('a project settings logo', '/admin/project-settings', (m) => [image(m, undefined, 'menuLogo', 'menu.png')], operator, 200);
    // Back to Strapi's own logo (a field that is not a file removes it).
    const reset = multipart([{ name: 'menuLogo', content: '' }]);
    expect((await raw('POST', '/admin/project-settings', { headers: { 'content-type': reset.type, ...operator }, body: reset.body })).status).toBe(200);
    const marker = marked();
    const { type, body } = multipart([image(marker, 2 * MB, 'files', 'cut.png')]);
    await abortMidBody('/upload', marker, { 'content-type': type, ...operator }, body, 1 * MB);
    scenarios += 1;
    await expectNothingLeft('an aborted media library upload', marker);
  });
});

// ---------------------------------------------------------------------------------------------

describe('login CSRF', () => {
  const authWrites = () => registered().api.filter((key) => key.startsWith('POST /api/auth/'));

  it('the auth endpoints take no form, text or multipart body: nobody is signed in or registered by one', async () => {
    const user = await verifiedUser();
    const form = `email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(user.password)}`;
    // <form enctype="text/plain"> with a field named `{"email":"…","password":"…","x":"` and value `"}`.
    const textPlain = `${JSON.stringify({ email: user.email, password: user.password, x: '' }).slice(0, -2)}="}`;
    const files = multipart([
      { name: 'email', content: user.email },
      { name: 'password', content: user.password },
    ]);
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', form],
      ['text/plain', textPlain],
      [files.type, files.body],
      ['', JSON.stringify({ email: user.email, password: user.password })],
    ] as const) {
      const res = await raw('POST', '/api/auth/login', { headers: type ? { 'content-type': type } : {}, body });
      expect({ type, status: res.status, cookie: res.headers['set-cookie'] ?? null }).toEqual({ type, status: 415, cookie: null });
      expect(res.body).toEqual({ success: false, message: MESSAGES.bodyMustBeJson });
    }
    const email = uniqueEmail('csrf-register');
    const register = await raw('POST', '/api/auth/register', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ first_name: 'Mallory', last_name: 'Form', email, password: user.password, password_confirmation: user.password }).toString(),
    });
    expect(register.status).toBe(415);
    expect(await suite.db('up_users').where({ email })).toEqual([]);
  });

  it('the auth endpoints refuse another site (Origin, or Sec-Fetch-Site without one)', async () => {
    const user = await verifiedUser();
    const signIn = await login(user.email, user.password);
    const routes = authWrites();
    expect(routes.length).toBeGreaterThanOrEqual(8);
    const foreign: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      { origin: `${PUBLIC_ORIGIN}.evil.example` },
      { origin: PUBLIC_ORIGIN.replace(/^http:/, 'https:') },
      { origin: PUBLIC_ORIGIN.replace(/:\d+$/, ':1') },
      { origin: 'http://sub.localhost:1337', 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    const failures: string[] = [];
    for (const key of routes) {
      const url = key.split(' ')[1]!;
      const body = url.endsWith('/login') ? { email: user.email, password: user.password } : {};
      for (const headers of foreign) {
        const res = await raw('POST', url, {
          headers: { 'content-type': 'application/json', cookie: signIn.cookie ?? '', ...bearer(signIn), ...headers },
          body: JSON.stringify(body),
        });
        const wrong = res.status !== 403 || res.body?.message !== MESSAGES.crossSiteRequest || res.headers['set-cookie'] !== undefined;
        if (wrong) failures.push(`${key} with ${JSON.stringify(headers)}: ${res.status} ${res.text.slice(0, 100)}`);
      }
    }
    // However the path is spelt.
    for (const url of ['/API/Auth/Login', '/api/auth/login/', '/api//auth/login']) {
      const res = await raw('POST', url, {
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      if (res.status < 400 || /access_token/.test(res.text)) failures.push(`${url} from another site: ${res.status}`);
    }
    expect(failures).toEqual([]);
    // The session they aimed at is untouched: the refresh cookie still works from our own page.
    const refreshed = await raw('POST', '/api/auth/refresh-token', {
      headers: { cookie: signIn.cookie ?? '', origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-origin' },
    });
    expect(refreshed.status).toBe(200);
  });

  it('our own pages, the trusted origins and callers without Origin (scripts, the integrator) still sign in', async () => {
    const user = await verifiedUser();
    const allowed: Array<Record<string, string>> = [
      {},
      { origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-origin' },
      { origin: PARTNER_ORIGIN, 'sec-fetch-site': 'cross-site' },
      { origin: new URL(baseUrl()).origin, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
    ];
    for (const headers of allowed) {
      const res = await raw('POST', '/api/auth/login', {
        headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      expect({ headers, status: res.status }).toEqual({ headers, status: 200 });
      const cookie = refreshCookie({ headers: res.headers } as never);
      expect(cookie).toBeDefined();
      const refreshed = await raw('POST', '/api/auth/refresh-token', { headers: { cookie: cookie!, ...headers } });
      expect({ headers, refreshed: refreshed.status }).toEqual({ headers, refreshed: 200 });
    }
    // The app's own client refreshes and signs out with a POST that has no body at all.
    expect((await raw('POST', '/api/auth/logout', { headers: { origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
  });
});
