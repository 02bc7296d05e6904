#!/usr/bin/env node
'use strict';
/**
 * The public player payload through nginx with one app process and with two (tests/cluster/lib.js:
 * the same nginx configuration, on one fresh PostgreSQL schema). Prints req/s and p99 for each
 * and the ratio; asserts nothing about speed (the machine is shared and noisy, and nginx, the load
 * generator and the app processes share its cores).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node tests/bench/cluster.js [--seconds 10] [--connections 50]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { withDatabase, jsonClient } = require('./lib');
const { startApps, startNginx } = require('../cluster/lib');

process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
const argValue = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = argValue('seconds', 10);
const CONNECTIONS = argValue('connections', 50);

const run = (url) =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS }, (err, result) => (err ? reject(err) : resolve(result)));
  });

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'branchify-cluster-bench-'));
  fs.chmodSync(dir, 0o777);
  let cluster = null;
  const proxies = [];
  try {
    await withDatabase(async (dbEnv) => {
      cluster = await startApps({ count: 2, dbEnv, dir });
      const json = jsonClient(cluster.apps[0].base);
      const admin = { first_name: 'Bench', last_name: 'Cluster', email: 'bench@cluster.test', password: 'bench-password-1' };
      const token = (await json('POST', '/api/auth/register', { ...admin, password_confirmation: admin.password })).access_token;
      const video = await json('POST', '/api/videos', { provider: 'youtube', url: 'dQw4w9WgXcQ', title: 'Intro' }, token);
      const funnel = await json('POST', '/api/funnels', { title: 'Bench funnel', settings: { enable_resume_play: true } }, token);
      await json(
        'PUT',
        `/api/funnels/${funnel.id}`,
        { title: 'Bench funnel', settings: { enable_resume_play: true }, videos: [{ id: video.id, editor_id: 'intro', elements: [] }] },
        token,
      );
      const rows = [];
      for (const count of [1, 2]) {
        const nginx = await startNginx({ dir: path.join(dir, `nginx-${count}`), upstreams: cluster.apps.slice(0, count).map((a) => a.port) });
        proxies.push(nginx);
        const url = `${nginx.url}/api/funnels/${funnel.identifier}/player`;
        await run(url).catch(() => null); // warm-up (JIT, caches, connections)
        const r = await run(url);
        rows.push({ count, rps: r.requests.average, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts });
        console.log(
          `player payload through nginx, ${count} process${count > 1 ? 'es' : ''}: ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms, ${rows.at(-1).bad} not 2xx`,
        );
        await nginx.stop();
      }
      console.log(`two processes / one: ${(rows[1].rps / rows[0].rps).toFixed(2)}x (${os.cpus().length} cores, shared with nginx and autocannon)`);
    });
  } finally {
    for (const p of proxies) await p.stop();
    if (cluster) await Promise.all(cluster.apps.map((_, i) => cluster.stop(i)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
