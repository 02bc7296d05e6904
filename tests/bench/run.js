#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: starts Branchify (the README's start script) in a child process on a fresh
 * SQLite file (or a fresh PostgreSQL schema when DATABASE_URL is set) and measures, with
 * autocannon from this process:
 *
 *   1. the public player payload against Strapi's own /_health, in the same run
 *;
 *   2. view/interaction ingest in events/s (target >= 2,000), then counts the rows to check that
 *      every acknowledged event is in the database.
 *
 * Prints the figures; asserts nothing about time (the machine is noisy). Options:
 *   --seconds N (default 10)   --connections N (default 50)
 */
const nodeCrypto = require('node:crypto');
const os = require('node:os');
const autocannon = require('autocannon');
const { withDatabase, startServer, jsonClient } = require('./lib');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 10);
const CONNECTIONS = arg('connections', 50);
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
                events: Array.from({ length: PER_REQUEST }, (_, i) => ({
                  event_id: nodeCrypto.randomUUID(),
                  video_id: 'intro',
                  node_id: 'e1-b',
                  connected_node: 'next',
                  player_time: i,
                })),
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
      await server.stop();
    }
  });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
