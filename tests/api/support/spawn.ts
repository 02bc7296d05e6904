import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';

const ROOT = path.resolve(__dirname, '..', '..', '..');

// Secrets of its own, as the run's server gets them.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the harness is CommonJS, shared with the runner
const { freshSecrets } = require('../../harness/context') as { freshSecrets: () => Record<string, string> };

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

export interface Answer {
  status: number;
  body: { success: boolean; message?: string; data?: Record<string, unknown> };
}

/** One JSON request over node:http (an agent to choose the connection; none: a new one). */
export const call = (url: string, init: { method?: string; body?: unknown; token?: string; agent?: http.Agent; headers?: Record<string, string> } = {}) =>
  new Promise<Answer>((resolve, reject) => {
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = http.request(
      url,
      {
        method: init.method ?? 'GET',
        agent: init.agent,
        headers: {
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...init.headers,
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

export interface SpawnedApp {
  base: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  log: () => string;
  /** A connection to the app's own database, for asserting rows. */
  openDb: () => Knex;
  /** Kills the process if still running, drops its database. */
  cleanUp: () => Promise<void>;
  /** The environment that points another app process at this one's database (a restart). */
  databaseEnv: Record<string, string>;
}

/**
 * Branchify started as `npm start` starts it (scripts/start.js), in a child process, on a database
 * of its own (a fresh SQLite file, or a fresh PostgreSQL schema when the run uses PostgreSQL).
 */
export const spawnApp = async (extraEnv: Record<string, string> = {}): Promise<SpawnedApp> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'branchify-app-'));
  const schema = `bf_app_${Date.now().toString(36)}_${process.pid}`;
  const pg = process.env.DATABASE_URL;
  const admin = pg ? knexFactory({ client: 'pg', connection: pg, pool: { min: 0, max: 1 } }) : null;
  if (admin) await admin.raw(`CREATE SCHEMA "${schema}"`);
  const databaseEnv: Record<string, string> = pg ? { DATABASE_SCHEMA: schema } : { DATABASE_FILENAME: path.join(dir, 'data.db') };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...freshSecrets(),
      ...databaseEnv,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: base,
      BRANCHIFY_ENV_FILE: path.join(dir, '.env'),
      LOG_FILE: path.join(dir, 'server.log'),
      LOG_LEVEL: 'info',
      PROXY_ENABLED: 'false',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const cleanUp = async () => {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    if (admin) {
      await admin.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.destroy();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const openDb = (): Knex =>
    pg
      ? knexFactory({ client: 'pg', connection: pg, searchPath: [schema], pool: { min: 0, max: 1 } })
      : knexFactory({ client: 'better-sqlite3', connection: { filename: path.join(dir, 'data.db') }, useNullAsDefault: true });

  for (let i = 0; i < 240 && child.exitCode === null; i += 1) {
    const up = await call(`${base}/_ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) return { base, child, exited, log: () => log, openDb, cleanUp, databaseEnv };
    await new Promise((r) => setTimeout(r, 500));
  }
  await cleanUp();
  throw new Error(`the server did not start:\n${log.slice(-3000)}`);
};
