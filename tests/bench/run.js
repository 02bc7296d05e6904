#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: starts Branchify (the README's start script) in a child process on a fresh
 * SQLite file (or a fresh PostgreSQL schema when DATABASE_URL is set) and measures, with
 * autocannon from this process:
 *
 *   1. the public player payload against Strapi's own /_health, in the same run
 *      (DESIGN.md target: >= 80% of its requests/s, p99 < 50 ms at 50 connections);
 *   2. view/interaction ingest in events/s (target >= 2,000), then counts the rows to check that
 *      every acknowledged event is in the database.
 *
 * Prints the figures; asserts nothing about time (the machine is noisy). Options:
 *   --seconds N  (default 10)   --connections N (default 50)
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const autocannon = require('autocannon');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 10);
const CONNECTIONS = arg('connections', 50);
const ROOT = path.resolve(__dirname, '..', '..');
const PORT = 1400 + Math.floor(Math.random() * 500);
const BASE = `http://127.0.0.1:${PORT}`;
const secret = () => crypto.randomBytes(24).toString('base64');

const run = (opts) =>
  new Promise((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });

const json = async (method, url, body, token) => {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data.data;
};

async function withDatabase(fn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'branchify-bench-'));
  try {
    if (!process.env.DATABASE_URL) return await fn({ DATABASE_FILENAME: path.join(dir, 'bench.db') }, dir);
    const { Client } = require('pg');
    const schema = `bf_bench_${Date.now().toString(36)}`;
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA "${schema}"`);
    try {
      return await fn({ DATABASE_SCHEMA: schema }, dir);
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function startServer(dbEnv, dir) {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...dbEnv,
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE,
      BRANCHIFY_ENV_FILE: path.join(dir, '.env'),
      APP_KEYS: `${secret()},${secret()}`,
      API_TOKEN_SALT: secret(),
      ADMIN_JWT_SECRET: secret(),
      TRANSFER_TOKEN_SALT: secret(),
      JWT_SECRET: secret(),
      ENCRYPTION_KEY: secret(),
      SERVE_ADMIN_PANEL: 'false',
      LOG_LEVEL: 'error',
      RATE_LIMIT_IP_MAX: '1000000',
      INGEST_RATE_LIMIT_IP_MAX: '10000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  for (let i = 0; i < 240; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
    const up = await fetch(`${BASE}/_health`).then((r) => r.ok || r.status === 204, () => false);
    if (up) return child;
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error(`server did not start:\n${log}`);
}

async function seed() {
  const admin = { first_name: 'Bench', last_name: 'Admin', email: 'bench@example.test', password: 'bench-password-1' };
  const reg = await json('POST', '/api/auth/register', { ...admin, password_confirmation: admin.password });
  const token = reg.access_token;
  const a = await json('POST', '/api/videos', { provider: 'youtube', url: 'dQw4w9WgXcQ', title: 'Intro' }, token);
  const b = await json('POST', '/api/videos', { provider: 'generic', url: 'https://cdn.example.com/next.mp4', title: 'Next' }, token);
  const funnel = await json('POST', '/api/funnels', { title: 'Bench funnel', settings: { enable_resume_play: true } }, token);
  const branch = (id, from, to) => ({
    id,
    type: 'branch',
    belongsTo: from,
    showAt: 2,
    hideAt: 20,
    data: { branches: [{ id: `${id}-b`, onclick: 'branch', video: to, standard: { text: 'Continue' } }], prompt: { text: 'Where next?' } },
  });
  await json(
    'PUT',
    `/api/funnels/${funnel.id}`,
    {
      title: 'Bench funnel',
      settings: { enable_resume_play: true },
      videos: [
        { id: a.id, editor_id: 'intro', elements: [branch('e1', 'intro', 'next'), { id: 't1', type: 'text', belongsTo: 'intro', showAt: 0, hideAt: 5, data: { title: 'Welcome' } }] },
        { id: b.id, editor_id: 'next', elements: [branch('e2', 'next', 'intro')] },
      ],
    },
    token,
  );
  return funnel.identifier;
}

const summary = (r) => ({ rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts });

async function countRows(dbEnv, table) {
  const knex = require('knex');
  const db = process.env.DATABASE_URL
    ? knex({ client: 'pg', connection: process.env.DATABASE_URL, searchPath: [dbEnv.DATABASE_SCHEMA] })
    : knex({ client: 'better-sqlite3', connection: { filename: dbEnv.DATABASE_FILENAME }, useNullAsDefault: true });
  try {
    const [{ n }] = await db(table).count({ n: '*' });
    return Number(n);
  } finally {
    await db.destroy();
  }
}

(async () => {
  await withDatabase(async (dbEnv, dir) => {
    const server = await startServer(dbEnv, dir);
    try {
      const reference = await seed();
      const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
      console.log(`bench: ${SECONDS}s per run, ${CONNECTIONS} connections, ${db}, ${os.cpus().length} cores`);

      // Warm both paths, then measure the baseline and the player payload back to back.
      await run({ url: `${BASE}/_health`, duration: 2 });
      await run({ url: `${BASE}/api/funnels/${reference}/player`, duration: 2 });
      const health = summary(await run({ url: `${BASE}/_health` }));
      const player = summary(await run({ url: `${BASE}/api/funnels/${reference}/player` }));
      const ratio = player.rps / health.rps;
      console.log(`player payload: ${player.rps.toFixed(0)} req/s, p99 ${player.p99} ms (non-2xx ${player.non2xx}, errors ${player.errors})`);
      console.log(`/_health baseline: ${health.rps.toFixed(0)} req/s, p99 ${health.p99} ms`);
      console.log(`player/_health ratio: ${(ratio * 100).toFixed(1)}% (target >= 80%), p99 ${player.p99} ms (target < 50 ms)`);

      // Ingest: each request carries a batch of interactions, as the player sends them.
      const PER_REQUEST = 20;
      let acknowledged = 0;
      const ingest = await run({
        url: `${BASE}/api/funnels/${reference}/interactions`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({
                events: Array.from({ length: PER_REQUEST }, (_, i) => ({ event_id: crypto.randomUUID(), video_id: 'intro', node_id: 'e1-b', connected_node: 'next', player_time: i })),
              }),
            }),
            onResponse: (status) => {
              if (status === 202) acknowledged += PER_REQUEST;
            },
          },
        ],
      });
      const stored = await countRows(dbEnv, 'branchify_funnel_interactions');
      const eventsPerSecond = acknowledged / SECONDS;
      console.log(
        `ingest: ${eventsPerSecond.toFixed(0)} events/s acknowledged (${PER_REQUEST} per request, ${ingest.requests.average.toFixed(0)} req/s, p99 ${ingest.latency.p99} ms, non-2xx ${ingest.non2xx}) (target >= 2000)`,
      );
      console.log(`ingest durability: ${acknowledged} acknowledged, ${stored} rows stored, ${Math.max(0, acknowledged - stored)} missing`);
      if (acknowledged > stored) process.exitCode = 1;
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
