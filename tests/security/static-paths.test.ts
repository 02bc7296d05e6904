import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createFunnel, freePlan, subscribedUser } from '../api/support/content';
import { baseUrl, newIp } from '../api/support/http';
import { findLoggedLink, logLength } from '../api/support/log';
import { adminSession, registerUser } from '../api/support/users';
import { record } from './summary';

/**
 * Odd paths on every route that serves files (/build, /demo-media, /uploads, /player and Strapi's
 * own public folder): a NUL however it is spelled, a path through a file, names and paths longer
 * than a file system takes, backslashes. Each is a 400 or a 404, never a 500, the answer carries
 * no stack, and the server logs at most one line for it, never a stack.
 */

const PUBLIC_DIR = path.join(__dirname, '..', '..', 'cms', 'public');
const UPLOADS_DIR = path.join(PUBLIC_DIR, 'uploads');
const tag = randomUUID().slice(0, 8);
/** Planted in public/uploads and in public/ itself (Strapi's own file server). */
const PLANTED = `static-paths-${tag}.txt`;

/** A raw request: the path goes out exactly as written (no client normalises it). */
const raw = (method: string, pathname: string, accept: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(baseUrl());
    const req = http.request({ host: url.hostname, port: url.port, method, path: pathname, headers: { 'x-forwarded-for': newIp(), accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });

/** Runs the tasks a few at a time (one server; enough to keep it busy, not to flood it). */
const inBatches = async <T>(tasks: Array<() => Promise<T>>, size = 4): Promise<T[]> => {
  const out: T[] = [];
  for (let i = 0; i < tasks.length; i += size) out.push(...(await Promise.all(tasks.slice(i, i + size).map((t) => t()))));
  return out;
};

const NAME_256 = 'a'.repeat(256);
const NAME_5000 = 'b'.repeat(5000);
/** 130 two-byte letters: 260 bytes, under 256 characters. */
const NAME_260_BYTES = '%C3%A9'.repeat(130);
/** 2,100 one-letter folders: a path over PATH_MAX (4,096 bytes) of short names. */
const MANY_SEGMENTS = 'a/'.repeat(2100);
/** 25 folders of 200 bytes: each name allowed, the path over PATH_MAX. */
const LONG_SEGMENTS = `${'c'.repeat(200)}/`.repeat(25);

/** Odd spellings of a path to `file` (an existing file's name under `root`). */
const oddPaths = (root: string, file: string): string[] => {
  const [first, rest] = [file.slice(0, 1), file.slice(1)];
  const urls = [
    // A NUL, escaped, in every place; escaped twice (a literal "%00" name); an overlong UTF-8 NUL.
    `${root}/${file}%00`,
    `${root}/%00${file}`,
    `${root}/${first}%00${rest}`,
    `${root}/${file}%00.png`,
    `${root}/%00`,
    `${root}/%00/${file}`,
    `${root}%00/${file}`,
    `${root}/${file}%2500`,
    `${root}/${file}%252500`,
    `${root}/${file}%C0%80`,
    // Through a file (a trailing slash alone is the file's own spelling, as on every route).
    `${root}/${file}/x`,
    `${root}/${file}/x/y.js`,
    `${root}/${file}%2Fx`,
    `${root}/${file}/${NAME_256}`,
    // Names and paths too long for a file system.
    `${root}/${NAME_256}`,
    `${root}/${NAME_256}.webm`,
    `${root}/${NAME_5000}`,
    `${root}/${'d'.repeat(300)}.webm`,
    `${root}/${NAME_260_BYTES}`,
    `${root}/${MANY_SEGMENTS}${file}`,
    `${root}/${LONG_SEGMENTS}${file}`,
    // Backslashes, as sent and escaped.
    `${root}/..\\..\\package.json`,
    `${root}/..%5C..%5Cpackage.json`,
    `${root}/${file}%5Cx`,
    `${root}%5C${file}`,
    `${root}/${file}\\`,
  ];
  return urls.map((url) => (url.startsWith('/') ? url : `/${url}`));
};

/** A stack frame in an answer or in a JSON log line (`\n    at fn (file:1:2)`). */
const STACK = /\bat .+:\d+:\d+/;
const LOGGED_STACK = /\\n\s+at .+:\d+:\d+|^\s{4}at /;

let checked = 0;
afterAll(() => {
  record('path-spellings', checked);
  console.log(`static paths: ${checked} odd requests checked`);
});

describe('odd paths on the static routes', () => {
  let reference = '';

  beforeAll(async () => {
    fs.mkdirSync(UPLOADS_DIR, { recursive: true });
    fs.writeFileSync(path.join(UPLOADS_DIR, PLANTED), 'planted');
    fs.writeFileSync(path.join(PUBLIC_DIR, PLANTED), 'planted');
    const admin = await adminSession();
    const owner = await subscribedUser(admin, (await freePlan(admin)).id);
    reference = (await createFunnel(owner)).identifier;
  });
  afterAll(() => {
    fs.rmSync(path.join(UPLOADS_DIR, PLANTED), { force: true });
    fs.rmSync(path.join(PUBLIC_DIR, PLANTED), { force: true });
  });

  it('answer 400 or 404 for GET and HEAD, never a 500 or a stack, and log no stack', async () => {
    const asset = fs.readdirSync(path.join(PUBLIC_DIR, 'build', 'player', 'assets')).find((name) => name.endsWith('.js'))!;
    const roots: Array<[string, string]> = [
      ['/build', 'app/index.html'],
      ['/build/player/assets', asset],
      ['/build/fonts', 'lato.css'],
      ['/demo-media', 'demo-intro.webm'],
      ['/uploads', PLANTED],
      ['/player', reference],
      // Strapi's own public folder (what no route above takes).
      ['', PLANTED],
    ];
    // The files are there: the odd spellings are refused for the spelling, not for a missing file.
    for (const [root, file] of roots) expect({ root, status: (await raw('GET', `${root}/${file}`, 'application/json')).status }).toEqual({ root, status: 200 });

    const before = logLength();
    const failures: string[] = [];
    const tasks = roots.flatMap(([root, file]) =>
      oddPaths(root, file).flatMap((url) =>
        (['GET', 'HEAD'] as const).flatMap((method) =>
          ['application/json', 'text/html'].map((accept) => async () => {
            // A browser navigation outside the static routes (`/build%5C…` is one) is the web app's page, with its own 404 view.
            if (accept === 'text/html' && (root === '' || !url.startsWith(`${root}/`))) return;
            const res = await raw(method, url, accept);
            checked += 1;
            const shown = `${method} ${url.slice(0, 120)}${url.length > 120 ? '…' : ''} (${accept})`;
            // Strapi's own file server (public/, outside the routes above) refuses a `..` out of its folder with 403.
            const refusals = root === '' && /\.\.(\\|%5C)/.test(url) ? [400, 403, 404] : [400, 404];
            if (!refusals.includes(res.status)) failures.push(`${shown}: ${res.status}`);
            if (STACK.test(res.body)) failures.push(`${shown}: a stack in the answer`);
          }),
        ),
      ),
    );
    await inBatches(tasks);

    // A line the server logs after everything above: the log is complete up to it.
    const marker = await registerUser();
    expect(await findLoggedLink('verification', marker.email, before)).toBeDefined();
    const logged = fs.readFileSync(process.env.LOG_FILE!, 'utf8').split('\n').slice(before);
    const stacks = logged.filter((line) => LOGGED_STACK.test(line)).map((line) => `logged a stack: ${line.slice(0, 200)}`);
    const uncut = logged.filter((line) => line.includes(NAME_5000.slice(0, 300))).map((line) => `logged the whole path: ${line.slice(0, 200)}`);
    expect([...failures, ...stacks, ...uncut]).toEqual([]);
    expect(checked).toBeGreaterThan(500);
  });

  it('log one warning line per odd request, naming its method and path', async () => {
    const before = logLength();
    const nul = `/build/app/index.html%00${tag}`;
    const through = `/build/app/index.html/${tag}`;
    const long = `/demo-media/${tag}${'e'.repeat(300)}.webm`;
    expect((await raw('GET', nul, 'application/json')).status).toBe(400);
    expect((await raw('HEAD', through, 'application/json')).status).toBe(404);
    expect((await raw('GET', long, 'application/json')).status).toBe(404);
    const marker = await registerUser();
    expect(await findLoggedLink('verification', marker.email, before)).toBeDefined();
    const messages = fs
      .readFileSync(process.env.LOG_FILE!, 'utf8')
      .split('\n')
      .slice(before)
      .map((line) => {
        try {
          return String((JSON.parse(line) as { message?: unknown }).message ?? '');
        } catch {
          return line;
        }
      })
      .filter((message) => message.includes(tag));
    expect(messages).toEqual([
      expect.stringMatching(/^\[http\] GET \/build\/app\/index\.html%00\w+ answered 400: /),
      expect.stringMatching(/^\[http\] HEAD \/build\/app\/index\.html\/\w+ answered 404: /),
      expect.stringMatching(/^\[http\] GET \/demo-media\/\w+e+… \(\d+ characters\) answered 404: /),
    ]);
    expect(messages.every((message) => !message.includes('\n') && message.length < 400)).toBe(true);
  });

  it('refuse a NUL in an /api path before it reaches a route or the database', async () => {
    for (const url of ['/api/funnels/%00', '/api/funnels/1%00/analytics', `/api/funnels/${reference}%00/player`, '/api/branchify/funnels/%00']) {
      const res = await raw('GET', url, 'application/json');
      checked += 1;
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.body).not.toMatch(STACK);
    }
  });
});
