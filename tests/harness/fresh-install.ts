import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the harness context is CommonJS
const { freshSecrets } = require('./context');

const root = path.join(__dirname, '..', '..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

export interface FreshInstall {
  url: string;
  stop(): Promise<void>;
}

/**
 * A fresh install of its own, for what the suites' shared server cannot show (it already has its
 * first admin, and one configuration): the README's start command on an empty database — a new
 * SQLite file, or a new PostgreSQL schema when DATABASE_URL is set — with extra environment.
 */
export const startFreshInstall = async (extraEnv: Record<string, string> = {}): Promise<FreshInstall> => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-fresh-'));
  const schema = `bf_fresh_${Date.now().toString(36)}_${process.pid}`;
  const postgres = Boolean(process.env.DATABASE_URL);
  const admin = async (sql: string) => {
    const pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
    await pg.query(sql);
    await pg.end();
  };
  if (postgres) await admin(`CREATE SCHEMA "${schema}"`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'scripts', 'start.js')], {
    env: {
      ...process.env,
      ...freshSecrets(),
      ...(postgres ? { DATABASE_SCHEMA: schema } : { DATABASE_FILENAME: path.join(scratch, 'data.db') }),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      BRANCHIFY_ENV_FILE: path.join(scratch, '.env'),
      LOG_FILE: path.join(scratch, 'server.log'),
      LOG_LEVEL: 'error',
      ...extraEnv,
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    fs.rmSync(scratch, { recursive: true, force: true });
    if (postgres) await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  };
  for (let i = 0; i < 600; i += 1) {
    if (
      await fetch(`${url}/_health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error('the fresh install did not start');
};
