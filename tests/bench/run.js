#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: starts Branchify (the README's start script) in a child process on a fresh
 * SQLite file (or a fresh PostgreSQL schema when DATABASE_URL is set) and measures, with
 * autocannon from this process:
 *
 *   1. the two routes every viewer loads (the player payload and the /player page) against a bare
 *      Node http server sending the same recorded bytes from its own process (tests/bench/
 *      bare-node.js), in the same run (target: at least 0.25 of it), with Strapi's /_health beside;
 *   2. view/interaction ingest in events/s (target >= 20,000, p99 < 100 ms), then counts the rows to check that
 *      every acknowledged event is in the database.
 *
 * Prints the figures; asserts nothing about time (the machine is noisy). Options:
 *   --seconds N (default 10)   --connections N (default 50)   --only viewer|ingest
 */
const nodeCrypto = require('node:crypto');
const os = require('node:os');
const autocannon = require('autocannon');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { withDatabase, startServer, jsonClient } = require('./lib');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 10);
const CONNECTIONS = arg('connections', 50);
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const part = (name) => !ONLY || ONLY === name;
const PORT = 1400 + Math.floor(Math.random() * 500);
const BASE = `http://127.0.0.1:${PORT}`;
const json = jsonClient(BASE);

const run = (opts) =>
  new Promise((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });

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
        {
          id: a.id,
          editor_id: 'intro',
          elements: [branch('e1', 'intro', 'next'), { id: 't1', type: 'text', belongsTo: 'intro', showAt: 0, hideAt: 5, data: { title: 'Welcome' } }],
        },
        { id: b.id, editor_id: 'next', elements: [branch('e2', 'next', 'intro')] },
      ],
    },
    token,
  );
  return funnel.identifier;
}

/** The response to a plain GET (no Accept-Encoding, as autocannon sends), headers and bytes as sent. */
const record = (url) =>
  new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...headers } = res.headers;
          resolve({ status: res.statusCode, headers, body: Buffer.concat(chunks).toString('base64') });
        });
      })
      .on('error', reject);
  });

/** tests/bench/bare-node.js in its own process, answering `recorded`; its base URL and a stop function. */
async function startBareNode(recorded, dir) {
  const file = path.join(dir, 'bare-node.json');
  fs.writeFileSync(file, JSON.stringify(recorded));
  const child = spawn(process.execPath, [path.join(__dirname, 'bare-node.js'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      const m = /ready (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`bare-node exited ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

const summary = (r) => ({ rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts });

async function countRows(dbEnv, table) {
  const knex = require('knex');
  require('@branchify/shared/node').useSupportedSqliteDriver();
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
    const server = await startServer({ dbEnv, dir, port: PORT });
    try {
      const reference = await seed();
      const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
      console.log(`bench: ${SECONDS}s per run, ${CONNECTIONS} connections, ${db}, ${os.cpus().length} cores`);

      // The viewer's two routes, recorded as Branchify sends them, for the bare Node ceiling.
      const routes = [
        { name: 'player payload', path: `/api/funnels/${reference}/player` },
        { name: '/player/{ref} page', path: `/player/${reference}` },
      ];
      const recorded = {};
      if (part('viewer')) {
        for (const route of routes) {
          const r = await record(`${BASE}${route.path}`);
          if (r.status !== 200) throw new Error(`${route.path} answered ${r.status}`);
          recorded[route.path] = r;
        }
        const bare = await startBareNode(recorded, dir);
        try {
          await run({ url: `${BASE}/_health`, duration: 2 });
          const health = summary(await run({ url: `${BASE}/_health` }));
          console.log(`/_health (the whole middleware chain): ${health.rps.toFixed(0)} req/s, p99 ${health.p99} ms`);
          for (const route of routes) {
            await run({ url: `${BASE}${route.path}`, duration: 2 });
            const ours = summary(await run({ url: `${BASE}${route.path}` }));
            const ceiling = summary(await run({ url: `${bare.base}${route.path}` }));
            const ratio = ours.rps / ceiling.rps;
            console.log(
              `${route.name}: ${ours.rps.toFixed(0)} req/s, p99 ${ours.p99} ms (non-2xx ${ours.non2xx}, errors ${ours.errors}); ` +
                `bare Node, same bytes: ${ceiling.rps.toFixed(0)} req/s; ratio ${ratio.toFixed(2)} (target >= 0.25), ${(ours.rps / health.rps).toFixed(2)}x /_health`,
            );
          }
        } finally {
          bare.stop();
        }
      }

      // Ingest: each request carries a batch of interactions, as the player sends them.
      if (part('ingest')) {
        const PER_REQUEST = 20;
        // As the player sends them: each batch belongs to a started view (its counters are per view).
        const views = [];
        for (let i = 0; i < 200; i += 1) {
          const view = await json('POST', `/api/funnels/${reference}/views`, { event_id: nodeCrypto.randomUUID() });
          views.push({ view_id: view.view_id, view_token: view.view_token });
        }
        let acknowledged = 0;
        const ingest = await run({
          url: `${BASE}/api/funnels/${reference}/interactions`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          requests: [
            {
              setupRequest: (req) => {
                const view = views[Math.floor(Math.random() * views.length)];
                return {
                  ...req,
                  body: JSON.stringify({
                    events: Array.from({ length: PER_REQUEST }, (_, i) => ({
                      event_id: nodeCrypto.randomUUID(),
                      ...view,
                      video_id: 'intro',
                      node_id: 'e1-b',
                      connected_node: 'next',
                      player_time: i,
                    })),
                  }),
                };
              },
              onResponse: (status) => {
                if (status === 202) acknowledged += PER_REQUEST;
              },
            },
          ],
        });
        const stored = await countRows(dbEnv, 'branchify_funnel_interactions');
        const eventsPerSecond = acknowledged / SECONDS;
        console.log(
          `ingest: ${eventsPerSecond.toFixed(0)} events/s acknowledged (${PER_REQUEST} per request, ${ingest.requests.average.toFixed(0)} req/s, p99 ${ingest.latency.p99} ms, non-2xx ${ingest.non2xx}) (target >= 20,000 events/s, p99 < 100 ms)`,
        );
        console.log(`ingest durability: ${acknowledged} acknowledged, ${stored} rows stored, ${Math.max(0, acknowledged - stored)} missing`);
        if (acknowledged > stored) process.exitCode = 1;
      }
    } finally {
      await server.stop();
    }
  });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
