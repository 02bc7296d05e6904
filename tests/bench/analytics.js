#!/usr/bin/env node
'use strict';
/**
 * The analytics report at scale: starts Branchify on a fresh SQLite file and then on a fresh
 * PostgreSQL schema (dropped after), makes a five-video funnel through the API, bulk-inserts
 * `--rows` stored rows (a quarter views, the rest interactions, over the last 365 days) straight
 * into the tables, and times `POST funnels/{id}/analytics` over the whole year and over the
 * default 30 days (the first report builds the per-day counters the writers otherwise keep on
 * ingest, and is timed apart). Prints one line per figure; asserts nothing about time (the machine is noisy).
 *
 *   node tests/bench/analytics.js [--rows 1000000] [--runs 5] [--pg postgres://…] [--only sqlite|postgres]
 */
const nodeCrypto = require('node:crypto');
const { withDatabase, startServer, jsonClient, median } = require('./lib');

const argValue = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROWS = Number(argValue('rows', 1_000_000));
const RUNS = Number(argValue('runs', 5));
const PG_URL = argValue('pg', process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
const ONLY = argValue('only', '');
const DAY_MS = 86_400_000;

const VIEWS = Math.round(ROWS / 4);
const INTERACTIONS = ROWS - VIEWS;
const VIEWERS = Math.round(VIEWS * 0.6);
const fmt = (n) => n.toLocaleString('en-US');

/** intro → a | b, a → c | d, b → c | d; c and d end it. */
const EDGES = {
  intro: [
    ['i-a', 'a'],
    ['i-b', 'b'],
  ],
  a: [
    ['a-c', 'c'],
    ['a-d', 'd'],
  ],
  b: [
    ['b-c', 'c'],
    ['b-d', 'd'],
  ],
};

async function makeFunnel(json) {
  const creator = { first_name: 'Bench', last_name: 'Analytics', email: 'analytics@example.test', password: 'bench-password-1' };
  const reg = await json('POST', '/api/auth/register', { ...creator, password_confirmation: creator.password });
  const token = reg.access_token;
  const ids = ['intro', 'a', 'b', 'c', 'd'];
  const videos = [];
  for (const id of ids)
    videos.push(await json('POST', '/api/videos', { provider: 'generic', url: `https://cdn.example.com/${id}.mp4`, title: `Video ${id}` }, token));
  const funnel = await json('POST', '/api/funnels', { title: 'Analytics bench', settings: { enable_resume_play: false } }, token);
  const element = (from) => ({
    id: `el-${from}`,
    type: 'branch',
    showAt: 2,
    hideAt: 20,
    data: {
      branches: EDGES[from].map(([id, to]) => ({ id, onclick: 'branch', video: to, standard: { text: `To ${to}` } })),
      settings: { inaction: EDGES[from][0][0] },
    },
  });
  await json(
    'PUT',
    `/api/funnels/${funnel.id}`,
    {
      title: 'Analytics bench',
      settings: { enable_resume_play: false },
      videos: ids.map((id, i) => ({ id: videos[i].id, editor_id: id, elements: EDGES[id] ? [element(id)] : [] })),
    },
    token,
  );
  return { id: funnel.id, identifier: funnel.identifier, token };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/**
 * Viewers playing the funnel as the player does (start a view, click, report progress), eight at
 * a time, until `running()` turns false; answers each request's time in ms.
 */
async function viewersPlaying(json, reference, running) {
  const times = [];
  const timed = async (work) => {
    const t = process.hrtime.bigint();
    const answer = await work();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    return answer;
  };
  const viewer = async () => {
    while (running()) {
      const view = await timed(() => json('POST', `/api/funnels/${reference}/views`, { event_id: nodeCrypto.randomUUID() }));
      const click = {
        event_id: nodeCrypto.randomUUID(),
        view_id: view.view_id,
        view_token: view.view_token,
        video_id: 'intro',
        node_id: 'i-a',
        connected_node: 'a',
        type: 'branch',
        player_time: 3,
      };
      await timed(() => json('POST', `/api/funnels/${reference}/interactions`, { events: [click] }));
      await timed(() =>
        json('PUT', `/api/funnels/${reference}/views`, {
          view_id: view.view_id,
          view_token: view.view_token,
          viewer_token: view.viewer_token,
          editor_id: 'a',
          last_watch_time: 1,
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: Number(process.env.BENCH_VIEWERS ?? 8) }, viewer));
  return times;
}

const latencyLine = (times) =>
  `${fmt(times.length)} requests, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(0)} ms`;

/** Generates the rows: each view walks intro → a|b → c|d, one interaction per step, until the interactions run out. */
function* rowsFor(funnelId) {
  const now = Date.now();
  let left = INTERACTIONS;
  for (let v = 0; v < VIEWS; v += 1) {
    const created = new Date(now - Math.floor(Math.random() * 364 * DAY_MS) - 60_000);
    const viewId = nodeCrypto.randomUUID();
    const steps = [];
    let at = 'intro';
    const want = Math.min(left, v === VIEWS - 1 ? left : Math.floor(Math.random() * 5) + 1);
    for (let s = 0; s < want; s += 1) {
      const options = EDGES[at] ?? EDGES.intro;
      const [branch, to] = options[Math.random() < 0.6 ? 0 : 1];
      const from = EDGES[at] ? at : 'intro';
      steps.push({ from, branch, to, type: Math.random() < 0.15 ? 'inaction' : 'branch' });
      at = to;
    }
    left -= steps.length;
    const view = {
      funnel_id: funnelId,
      event_id: viewId,
      viewer_token: `viewer-${v % VIEWERS}`,
      watch_time: 30,
      last_watch_time: 10,
      editor_id: at,
      progress: JSON.stringify({ [at]: { max: 10, duration: 12 } }),
      created_at: created,
    };
    yield {
      view,
      interactions: steps.map((s) => ({
        funnel_id: funnelId,
        event_id: nodeCrypto.randomUUID(),
        view_id: viewId,
        video_id: s.from,
        node_id: s.branch,
        connected_node: s.to,
        type: s.type,
        player_time: 5,
        created_at: created,
      })),
    };
  }
}

/** SQLite: one prepared INSERT per table inside one transaction (better-sqlite3 is synchronous). */
function seedSqlite(filename, funnelId) {
  const Database = require(require('@branchify/shared/node').SQLITE_DRIVER);
  const db = new Database(filename);
  // The server stores datetimes as epoch milliseconds: do the same.
  const viewStmt = db.prepare(
    `INSERT INTO branchify_funnel_views (funnel_id, event_id, viewer_token, watch_time, last_watch_time, editor_id, progress, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const interactionStmt = db.prepare(
    `INSERT INTO branchify_funnel_interactions (funnel_id, event_id, view_id, video_id, node_id, connected_node, type, player_time, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let count = 0;
  db.transaction(() => {
    for (const { view: v, interactions } of rowsFor(funnelId)) {
      const t = v.created_at.getTime();
      viewStmt.run(v.funnel_id, v.event_id, v.viewer_token, v.watch_time, v.last_watch_time, v.editor_id, v.progress, t, t);
      for (const i of interactions)
        interactionStmt.run(i.funnel_id, i.event_id, i.view_id, i.video_id, i.node_id, i.connected_node, i.type, i.player_time, t, t);
      count += 1 + interactions.length;
    }
  })();
  db.exec('ANALYZE');
  db.close();
  return count;
}

/** PostgreSQL: multi-row INSERT … SELECT FROM unnest(arrays), 20,000 rows a statement. */
async function seedPostgres(schema, funnelId) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`SET search_path TO "${schema}"`);
  const CHUNK = 20_000;
  let views = [];
  let interactions = [];
  let count = 0;
  const flushViews = async () => {
    if (!views.length) return;
    const col = (k) => views.map((r) => r[k]);
    await client.query(
      `INSERT INTO branchify_funnel_views (funnel_id, event_id, viewer_token, watch_time, last_watch_time, editor_id, progress, created_at, updated_at)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::numeric[], $5::numeric[], $6::text[], $7::jsonb[], $8::timestamp[], $8::timestamp[])`,
      [col('funnel_id'), col('event_id'), col('viewer_token'), col('watch_time'), col('last_watch_time'), col('editor_id'), col('progress'), col('created_at')],
    );
    count += views.length;
    views = [];
  };
  const flushInteractions = async () => {
    if (!interactions.length) return;
    const col = (k) => interactions.map((r) => r[k]);
    await client.query(
      `INSERT INTO branchify_funnel_interactions (funnel_id, event_id, view_id, video_id, node_id, connected_node, type, player_time, created_at, updated_at)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::timestamp[], $9::timestamp[])`,
      [
        col('funnel_id'),
        col('event_id'),
        col('view_id'),
        col('video_id'),
        col('node_id'),
        col('connected_node'),
        col('type'),
        col('player_time'),
        col('created_at'),
      ],
    );
    count += interactions.length;
    interactions = [];
  };
  try {
    for (const { view, interactions: rows } of rowsFor(funnelId)) {
      views.push(view);
      interactions.push(...rows);
      if (views.length >= CHUNK) await flushViews();
      if (interactions.length >= CHUNK) await flushInteractions();
    }
    await flushViews();
    await flushInteractions();
    await client.query('ANALYZE branchify_funnel_views; ANALYZE branchify_funnel_interactions');
  } finally {
    await client.end();
  }
  return count;
}

async function bench(label) {
  const pg = label === 'PostgreSQL';
  if (pg) process.env.DATABASE_URL = PG_URL;
  else delete process.env.DATABASE_URL;
  await withDatabase(async (dbEnv, dir) => {
    const port = 1900 + Math.floor(Math.random() * 500);
    const server = await startServer({ dbEnv, dir, port, extraEnv: pg ? { DATABASE_URL: PG_URL } : {} });
    let log = '';
    server.child.stdout.on('data', (d) => (log += d));
    server.child.stderr.on('data', (d) => (log += d));
    try {
      const call = jsonClient(server.base);
      // A keep-alive socket the server closed while we seeded fails once: try again on a new one.
      const json = (...args) => call(...args).catch((error) => (error.cause?.code === 'UND_ERR_SOCKET' ? call(...args) : Promise.reject(error)));
      const funnel = await makeFunnel(json);
      const started = Date.now();
      const stored = pg ? await seedPostgres(dbEnv.DATABASE_SCHEMA, funnel.id) : seedSqlite(dbEnv.DATABASE_FILENAME, funnel.id);
      const seeded = (Date.now() - started) / 1000;
      console.log(
        `analytics ${label}: seeded ${fmt(stored)} rows (${fmt(VIEWS)} views by ${fmt(VIEWERS)} viewers, ${fmt(INTERACTIONS)} interactions, 365 days) in ${seeded.toFixed(1)} s`,
      );
      const day = (offset) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
      // Viewers playing with no build running: the baseline for the same load during the build.
      const quietUntil = Date.now() + 5000;
      const quiet = await viewersPlaying(json, funnel.identifier, () => Date.now() < quietUntil);
      // Rows loaded in bulk have no counters yet: the first report builds them (once), while viewers keep playing.
      const built = process.hrtime.bigint();
      let building = true;
      const [during] = await Promise.all([
        viewersPlaying(json, funnel.identifier, () => building),
        json('POST', `/api/funnels/${funnel.id}/analytics`, {}, funnel.token).finally(() => (building = false)),
      ]);
      console.log(
        `analytics ${label}: first report, building the per-day counters from the stored rows: ${(Number(process.hrtime.bigint() - built) / 1e6).toFixed(0)} ms`,
      );
      console.log(`analytics ${label}: viewers' requests with no build running: ${latencyLine(quiet)}`);
      console.log(
        `analytics ${label}: viewers' requests during the build: ${latencyLine(during)}; p99 ÷ no build ${(percentile(during, 99) / percentile(quiet, 99)).toFixed(2)} (target p99 < 100 ms)`,
      );
      const time = async (body) => {
        const times = [];
        let report = null;
        for (let r = 0; r <= RUNS; r += 1) {
          const t = process.hrtime.bigint();
          report = await json('POST', `/api/funnels/${funnel.id}/analytics`, body, funnel.token);
          if (r > 0) times.push(Number(process.hrtime.bigint() - t) / 1e6); // the first run warms the caches
        }
        return { ms: median(times), max: Math.max(...times), report };
      };
      const year = await time({ from: day(-365), to: day(0) });
      const edges = year.report.map.edges.reduce((s, e) => s + e.viewers, 0);
      console.log(
        `analytics ${label}: report over 365 days (${fmt(year.report.views.total)} views, ${fmt(year.report.views.unique)} viewers, ${fmt(edges)} edge viewers): median ${year.ms.toFixed(0)} ms, max ${year.max.toFixed(0)} ms (${RUNS} runs)`,
      );
      const month = await time({});
      console.log(
        `analytics ${label}: report over the default 30 days (${fmt(month.report.views.total)} views): median ${month.ms.toFixed(0)} ms, max ${month.max.toFixed(0)} ms (${RUNS} runs)`,
      );
    } catch (error) {
      console.error(`analytics ${label}: failed; the server said:\n${log.slice(-4000)}`);
      throw error;
    } finally {
      await server.stop();
    }
  });
}

(async () => {
  if (ONLY !== 'postgres') await bench('SQLite');
  if (ONLY !== 'sqlite') await bench('PostgreSQL');
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
