#!/usr/bin/env node
'use strict';
/**
 * Branchify as a cluster: two app processes on different ports behind nginx (Debian's package),
 * one fresh PostgreSQL schema. A bounded load of logins, funnel saves, player loads (payload and
 * page) and view events goes through nginx while one process is stopped gracefully (SIGTERM) and started again,
 * and while PostgreSQL is restarted once. Then it checks, each as one test:
 *   - a user logged in through one process stays logged in through the other (token and refresh);
 *   - a funnel saved through one process is what the other's player serves (cache version);
 *   - the stopped process exited 0, and no request failed while it was away;
 *   - requests failed only while PostgreSQL was down, and then cleanly (503);
 *   - no acknowledged view event or funnel save is lost;
 *   - a Stripe webhook delivered to both processes at once is applied once.
 * Prints requests served, errors, events acknowledged and stored, and `cluster: N passed, N failed`
 * (also left in tests/.tmp/summary-cluster.json for .ci/run).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node tests/cluster/run.js [--no-db-restart]
 */
const nodeCrypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { createFakeStripe } = require('../fakes/stripe/server');
const { startApps, startNginx } = require('./lib');

process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
const TMP = path.join(__dirname, '..', '.tmp');
const WORKERS = 6;
// `--no-db-restart` leaves PostgreSQL alone (while working on this script; other runs share it).
const RESTART_DB = !process.argv.includes('--no-db-restart');
const STRIPE = { secret: 'sk_test_branchify_cluster', publishable_key: 'pk_test_branchify_cluster', webhook_secret: 'whsec_test_branchify_cluster' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const uuid = () => nodeCrypto.randomUUID();

const results = [];
const check = (name, ok, detail = '') => {
  results.push({ name, ok });
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
};

/** A JSON call; never throws (a network failure is status 0). */
async function call(base, method, url, { body, token, cookie, headers = {} } = {}) {
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON (nginx's own error page) */
    }
    return { status: res.status, body: json, text, setCookie: res.headers.getSetCookie?.() ?? [] };
  } catch (error) {
    return { status: 0, body: null, text: String(error.cause?.code ?? error.message), setCookie: [] };
  }
}

const must = async (promise, status, what) => {
  const res = await promise;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body?.data;
};

/**
 * A fresh schema, created and dropped on connections of their own (a client held open across the
 * PostgreSQL restart would be cut).
 */
async function withSchema(fn) {
  const { Client } = require('pg');
  const schema = `bf_cluster_${Date.now().toString(36)}`;
  const run = async (sql) => {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA "${schema}"`);
  try {
    return await fn({ DATABASE_SCHEMA: schema });
  } finally {
    await run(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch((error) => console.error(`could not drop ${schema}: ${error.message}`));
  }
}

const sign = (payload, secret) => {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${nodeCrypto.createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
};

async function main() {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'branchify-cluster-'));
  fs.chmodSync(dir, 0o777);
  const stripe = await createFakeStripe({ host: '127.0.0.1', port: 0 });
  let cluster = null;
  let nginx = null;
  try {
    await withSchema(async (dbEnv) => {
      const extraEnv = {
        LOG_LEVEL: 'info',
        STRIPE_API_HOST: stripe.host,
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
        STRIPE_TIMEOUT_MS: '5000',
        // Long, so only the cache version (every 500 ms) can explain another process's change showing.
        PLAYER_CACHE_TTL_SECONDS: '600',
        RATE_LIMIT_IP_MAX: '1000000',
        INGEST_RATE_LIMIT_IP_MAX: '10000000',
        SHUTDOWN_GRACE_MS: '15000',
      };
      cluster = await startApps({ count: 2, dbEnv, dir, extraEnv });
      const [A, B] = cluster.apps.map((a) => a.base);
      nginx = await startNginx({ dir: path.join(dir, 'nginx'), upstreams: cluster.apps.map((a) => a.port) });
      const N = nginx.url;
      console.log(
        `cluster: 2 processes (${A}, ${B}) behind nginx ${N}, schema ${dbEnv.DATABASE_SCHEMA} (up in ${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );

      // Set-up through nginx: the administrator (first registration), a video, one funnel per worker.
      const password = 'cluster-pass-1';
      const admin = await must(
        call(N, 'POST', '/api/auth/register', {
          body: { first_name: 'Clu', last_name: 'Ster', email: 'admin@cluster.test', password, password_confirmation: password },
        }),
        201,
        'register admin',
      );
      const adminToken = admin.access_token;
      const video = await must(
        call(N, 'POST', '/api/videos', { token: adminToken, body: { provider: 'generic', url: 'https://cdn.example.com/a.mp4', title: 'A' } }),
        201,
        'video',
      );
      const funnels = [];
      for (let w = 0; w < WORKERS; w += 1) {
        funnels.push(
          await must(
            call(N, 'POST', '/api/funnels', { token: adminToken, body: { title: `Cluster ${w}`, settings: { enable_resume_play: false } } }),
            201,
            'funnel',
          ),
        );
      }
      const doc = (title) => ({
        title,
        description: '',
        settings: { enable_resume_play: false },
        videos: [{ id: video.id, editor_id: 'intro', elements: [] }],
      });

      // 1. One session across processes: log in through A, use the token and the refresh cookie on B.
      const login = await call(A, 'POST', '/api/auth/login', { body: { email: 'admin@cluster.test', password } });
      const cookie = (login.setCookie.find((c) => c.startsWith('branchify_refresh=')) ?? '').split(';')[0];
      const me = await call(B, 'GET', '/api/auth/user', { token: login.body?.data?.access_token });
      const refreshed = await call(B, 'POST', '/api/auth/refresh-token', { cookie });
      const again = await call(A, 'GET', '/api/auth/user', { token: refreshed.body?.data?.access_token });
      check(
        'a user logged in through one process stays logged in through the other',
        login.status === 200 && me.status === 200 && me.body.data.email === 'admin@cluster.test' && refreshed.status === 200 && again.status === 200,
        `login ${login.status} on A, /auth/user ${me.status} and refresh ${refreshed.status} on B, new token ${again.status} on A`,
      );

      // 2. A save through A reaches B's cached player payload (its cache lives 600 s; the version moves).
      const ref0 = funnels[0].identifier;
      await must(call(B, 'GET', `/api/funnels/${ref0}/player`), 200, 'player on B');
      await must(call(A, 'PUT', `/api/funnels/${funnels[0].id}`, { token: adminToken, body: doc('Saved through A') }), 200, 'save on A');
      let seen = '';
      for (let i = 0; i < 30 && seen !== 'Saved through A'; i += 1) {
        seen = (await call(B, 'GET', `/api/funnels/${ref0}/player`)).body?.data?.title;
        if (seen !== 'Saved through A') await sleep(100);
      }
      check("a funnel saved through one process is what the other's player serves", seen === 'Saved through A', `B serves "${seen}"`);

      // 3. The bounded load through nginx.
      const log = []; // { at, op, status }
      const acked = { views: new Set(), saves: new Map() }; // saves: funnel id -> last acknowledged title
      const attempted = new Map(); // funnel id -> titles sent, in order
      let stopLoad = false;
      const worker = async (w) => {
        const f = funnels[w];
        let n = 0;
        let token = adminToken;
        while (!stopLoad) {
          n += 1;
          const at = Date.now();
          let res;
          let op;
          if (n % 10 === 0) {
            op = 'login';
            res = await call(N, 'POST', '/api/auth/login', { body: { email: 'admin@cluster.test', password } });
            if (res.status === 200) {
              token = res.body.data.access_token;
              const who = await call(N, 'GET', '/api/auth/user', { token });
              log.push({ at: Date.now(), op: 'session', status: who.status });
            }
          } else if (n % 5 === 0) {
            op = 'save';
            const title = `Cluster ${w} save ${n}`;
            attempted.set(f.id, [...(attempted.get(f.id) ?? []), title]);
            res = await call(N, 'PUT', `/api/funnels/${f.id}`, { token, body: doc(title) });
            if (res.status === 200) acked.saves.set(f.id, title);
          } else if (n % 4 === 0) {
            op = 'page';
            res = await call(N, 'GET', `/player/${f.identifier}`, { headers: { accept: 'text/html' } });
          } else if (n % 2 === 0) {
            op = 'player';
            res = await call(N, 'GET', `/api/funnels/${f.identifier}/player`);
          } else {
            op = 'view';
            const id = uuid();
            res = await call(N, 'POST', `/api/funnels/${f.identifier}/views`, { body: { event_id: id } });
            if (res.status === 201 && res.body?.data?.view_id === id) acked.views.add(id);
          }
          log.push({ at, op, status: res.status, text: res.status >= 400 || res.status === 0 ? res.text.slice(0, 120) : '' });
        }
      };
      const phases = {};
      const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
      await sleep(4000);

      // Process B stops gracefully and starts again while the load runs.
      phases.restartFrom = Date.now();
      const exitCode = await cluster.stop(1);
      phases.stopped = Date.now();
      await cluster.restart(1);
      phases.restartTo = Date.now();
      await sleep(3000);

      // PostgreSQL restarts once.
      phases.dbFrom = Date.now();
      if (RESTART_DB) {
        const version = fs.readdirSync('/etc/postgresql')[0];
        execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart'], { stdio: 'ignore' });
      }
      phases.dbTo = Date.now();
      await sleep(6000);
      stopLoad = true;
      await Promise.all(workers);
      const loadMs = Date.now() - phases.restartFrom + 4000;

      const during = (e, from, to) => e.at >= from && e.at <= to;
      const errors = log.filter((e) => e.status === 0 || e.status >= 500);
      // While the database is down, and the moments after it is back, when pooled connections it cut are found dead.
      const dbWindow = (e) => during(e, phases.dbFrom - 500, phases.dbTo + 5000);
      const restartErrors = errors.filter((e) => during(e, phases.restartFrom, phases.restartTo) && !dbWindow(e));
      const outside = errors.filter((e) => !dbWindow(e));
      const unclean = errors.filter((e) => dbWindow(e) && e.status !== 503);
      const byOp = (list) => Object.entries(list.reduce((m, e) => ((m[e.op] = (m[e.op] ?? 0) + 1), m), {})).map(([k, v]) => `${k} ${v}`);
      const sample = (list) => (list.length ? ` e.g. ${JSON.stringify(list.slice(0, 3))}` : '');

      check(
        'the stopped process exited 0 and no request failed while it was away',
        exitCode === 0 && restartErrors.length === 0,
        `exit ${exitCode}, stop took ${phases.stopped - phases.restartFrom} ms, back after ${phases.restartTo - phases.restartFrom} ms, ${restartErrors.length} errors${sample(restartErrors)}`,
      );
      check(
        'requests failed only while PostgreSQL was down, and then cleanly (503)',
        outside.length === 0 && unclean.length === 0,
        `restart took ${phases.dbTo - phases.dbFrom} ms; ${errors.length - outside.length} failed in that window (${byOp(errors.filter(dbWindow)).join(', ') || 'none'}), ${unclean.length} not 503, ${outside.length} outside it${sample([...unclean, ...outside])}`,
      );

      if (unclean.length || outside.length) {
        // What the processes logged about the failures (the request's context and the error).
        for (const app of cluster.apps) {
          const lines = fs.existsSync(app.logFile) ? fs.readFileSync(app.logFile, 'utf8').split('\n') : [];
          for (const line of lines.filter((l) => /\[api\].*failed/.test(l)).slice(0, 5)) console.log(`    ${line.slice(0, 600)}`);
        }
      }

      // 4. Nothing acknowledged is lost.
      const { Client } = require('pg');
      const db = new Client({ connectionString: process.env.DATABASE_URL });
      await db.connect();
      await db.query(`SET search_path TO "${dbEnv.DATABASE_SCHEMA}"`);
      const ids = [...acked.views];
      const stored = Number((await db.query('SELECT count(*) AS n FROM branchify_funnel_views WHERE event_id = ANY($1)', [ids])).rows[0].n);
      let savesLost = 0;
      for (const [id, title] of acked.saves) {
        const row = (await db.query('SELECT title FROM branchify_funnels WHERE id = $1', [id])).rows[0];
        const sent = attempted.get(id) ?? [];
        // The stored title is the last acknowledged save or one sent after it (an answer lost on the way).
        if (!row || sent.indexOf(row.title) < sent.indexOf(title)) savesLost += 1;
      }
      const savesAcked = log.filter((e) => e.op === 'save' && e.status === 200).length;
      check(
        'no acknowledged view event or funnel save is lost',
        stored === ids.length && savesLost === 0,
        `${ids.length} view events acknowledged, ${stored} stored; ${savesAcked} saves acknowledged, ${savesLost} funnels behind their last one`,
      );

      // 5. A Stripe webhook delivered to both processes at once is applied once.
      await must(call(N, 'PUT', '/api/admin/stripe/config', { token: adminToken, body: STRIPE }), 200, 'stripe config');
      // The test server's own deliveries stay paused: this test delivers.
      await fetch(`${stripe.url}/_control/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${N}/api/stripe/webhook`, secret: STRIPE.webhook_secret }),
      });
      await fetch(`${stripe.url}/_control/webhooks/pause`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const plan = await must(
        call(N, 'POST', '/api/admin/plans', {
          token: adminToken,
          body: {
            name: 'Cluster plan',
            price: '9.00',
            currency: 'usd',
            payment_schedule: 'monthly',
            managed_by: 'platform',
            max_funnel: null,
            max_branch_per_funnel: null,
            video_sources: null,
          },
        }),
        201,
        'plan',
      );
      const buyer = await must(
        call(N, 'POST', '/api/auth/register', {
          body: { first_name: 'Buy', last_name: 'Er', email: 'buyer@cluster.test', password, password_confirmation: password },
        }),
        201,
        'register buyer',
      );
      // Production processes mail the verification link (none is configured here): set up as verified.
      await db.query('UPDATE up_users SET email_verified_at = now() WHERE id = $1', [buyer.user.id]);
      await must(
        call(N, 'POST', '/api/users/subscriptions', { token: buyer.access_token, body: { plan_id: plan.id, payment_method_id: 'pm_card_visa' } }),
        201,
        'subscribe',
      );
      const events = await (await fetch(`${stripe.url}/_control/events`)).json();
      const paid = events.find((e) => e.type === 'invoice.paid');
      const payload = JSON.stringify(paid);
      const deliveries = await Promise.all(
        [A, B, A, B].map((base) =>
          call(base, 'POST', '/api/stripe/webhook', { body: payload, headers: { 'stripe-signature': sign(payload, STRIPE.webhook_secret) } }),
        ),
      );
      const rows = (await db.query('SELECT status FROM branchify_stripe_events WHERE event_id = $1', [paid.id])).rows;
      const invoices = Number((await db.query('SELECT count(*) AS n FROM branchify_invoices WHERE invoice_id = $1', [paid.data.object.id])).rows[0].n);
      check(
        'a Stripe webhook delivered to both processes at once is applied once',
        deliveries.every((d) => d.status === 200) && rows.length === 1 && rows[0].status === 'processed' && invoices === 1,
        `deliveries ${deliveries.map((d) => d.status).join(' ')}; ${rows.length} event row (${rows[0]?.status}), ${invoices} invoice row`,
      );
      await db.end();

      const served = log.filter((e) => e.status > 0 && e.status < 500).length;
      console.log(`requests served: ${served} in ${(loadMs / 1000).toFixed(0)} s (${byOp(log).join(', ')})`);
      console.log(`errors: ${errors.length} (${errors.map((e) => e.status).join(' ') || 'none'})`);
      console.log(`events acknowledged: ${ids.length}, events stored: ${stored}, events lost: ${ids.length - stored}`);
    });
  } finally {
    if (nginx) await nginx.stop();
    if (cluster) {
      await Promise.all(cluster.apps.map((_, i) => cluster.stop(i)));
    }
    await stripe.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`cluster test took ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main()
  .catch((error) => {
    console.error(`cluster: ${error.stack ?? error.message}`);
    results.push({ name: 'the cluster run completed', ok: false });
  })
  .finally(() => {
    const passed = results.filter((r) => r.ok).length;
    const failed = results.length - passed;
    fs.mkdirSync(TMP, { recursive: true });
    fs.writeFileSync(path.join(TMP, 'summary-cluster.json'), JSON.stringify({ label: 'cluster', passed, failed }));
    console.log(`cluster: ${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  });
