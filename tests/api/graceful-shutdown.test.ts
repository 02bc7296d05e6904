import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { MESSAGES } from '@branchify/shared';
import { freshSecrets } from '../harness/context';

/**
 * A second Branchify, started as `npm start` starts it (scripts/start.js) on its own database,
 * receives SIGTERM while a view event is still arriving: the event is answered and stored, the
 * process stops taking connections and reports not ready, and exits 0.
 */
const ROOT = path.resolve(__dirname, '..', '..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

interface Answer {
  status: number;
  body: { success: boolean; message?: string; data?: Record<string, unknown> };
}

const call = (url: string, init: { method?: string; body?: unknown; token?: string; agent?: http.Agent } = {}) =>
  new Promise<Answer>((resolve, reject) => {
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = http.request(
      url,
      {
        method: init.method ?? 'GET',
        agent: init.agent,
        headers: {
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} });
          } catch {
            reject(new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 200)}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

describe('graceful shutdown', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'branchify-shutdown-'));
  const schema = `bf_shutdown_${Date.now().toString(36)}`;
  let admin: Knex | null = null;
  let child: ChildProcess | null = null;
  let log = '';

  const openDb = (): Knex =>
    process.env.DATABASE_URL
      ? knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, searchPath: [schema], pool: { min: 0, max: 1 } })
      : knexFactory({ client: 'better-sqlite3', connection: { filename: path.join(dir, 'data.db') }, useNullAsDefault: true });

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (admin) {
      await admin.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.destroy();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers and stores the view event in flight, refuses new connections, reports not ready, and exits 0', async () => {
    if (process.env.DATABASE_URL) {
      admin = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 } });
      await admin.raw(`CREATE SCHEMA "${schema}"`);
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...freshSecrets(),
        ...(process.env.DATABASE_URL ? { DATABASE_SCHEMA: schema } : { DATABASE_FILENAME: path.join(dir, 'data.db') }),
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: base,
        BRANCHIFY_ENV_FILE: path.join(dir, '.env'),
        LOG_FILE: path.join(dir, 'server.log'),
        LOG_LEVEL: 'info',
        PROXY_ENABLED: 'false',
        SHUTDOWN_GRACE_MS: '15000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    let up = false;
    for (let i = 0; i < 240 && !up && child.exitCode === null; i += 1) {
      up = await call(`${base}/_ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!up) await new Promise((r) => setTimeout(r, 500));
    }
    if (!up) throw new Error(`the server did not start:\n${log}`);

    // The first registration is the administrator, whose funnels are public without a plan.
    const password = 'shutdown-pass-1';
    const reg = await call(`${base}/api/auth/register`, {
      method: 'POST',
      body: { first_name: 'Shut', last_name: 'Down', email: 'shutdown@example.test', password, password_confirmation: password },
    });
    const token = String(reg.body.data?.access_token);
    const video = await call(`${base}/api/videos`, { method: 'POST', token, body: { provider: 'generic', url: 'https://cdn.example.com/a.mp4', title: 'A' } });
    const funnel = await call(`${base}/api/funnels`, { method: 'POST', token, body: { title: 'Shutdown', settings: { enable_resume_play: false } } });
    expect([video.status, funnel.status]).toEqual([201, 201]);
    const reference = String(funnel.body.data?.identifier);

    // A keep-alive connection opened before the signal, to ask for readiness after it.
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await call(`${base}/_live`, { agent: keepAlive })).status).toBe(200);

    // A view event whose body is still arriving when the signal comes.
    const eventId = crypto.randomUUID();
    const body = JSON.stringify({ event_id: eventId });
    const slow = new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        `${base}/api/funnels/${reference}/views`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept: 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : { success: false, message: text } }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => req.end(body.slice(5)), 2500);
    });
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 700));

    const notReady = await call(`${base}/_ready`, { agent: keepAlive });
    expect(notReady.status).toBe(503);
    expect(notReady.body).toEqual({ success: false, message: MESSAGES.serviceUnavailable });
    await expect(call(`${base}/_live`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const answered = await slow;
    expect(answered.status).toBe(201);
    expect(answered.body.data?.view_id).toBe(eventId);
    keepAlive.destroy();

    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 30_000))]);
    if (code !== 0) throw new Error(`exit ${String(code)}:\n${log.slice(-3000)}`);
    expect(log).toMatch(/stopped cleanly/);
    const db = openDb();
    try {
      expect(await db('branchify_funnel_views').where({ event_id: eventId }).count({ n: '*' })).toEqual([{ n: process.env.DATABASE_URL ? '1' : 1 }]);
    } finally {
      await db.destroy();
    }
  });
});
