'use strict';
/**
 * Helpers shared by the benches: a fresh database, Branchify started as `npm start` would in a
 * child process, JSON calls to it, and a Range-capable static server for the sample video.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { freshSecrets } = require('../harness/context');

const ROOT = path.resolve(__dirname, '..', '..');

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

/** Starts scripts/start.js on `port`; resolves with the child (and the environment it runs with) once /_health answers. */
async function startServer({ dbEnv, dir, port, extraEnv = {} }) {
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    ...dbEnv,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    BRANCHIFY_ENV_FILE: path.join(dir, '.env'),
    ...freshSecrets(),
    SERVE_ADMIN_PANEL: 'false',
    LOG_LEVEL: 'error',
    RATE_LIMIT_IP_MAX: '1000000',
    INGEST_RATE_LIMIT_IP_MAX: '10000000',
    ...extraEnv,
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  for (let i = 0; i < 240; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
    const up = await fetch(`${base}/_health`).then(
      (r) => r.ok || r.status === 204,
      () => false,
    );
    if (up) return { child, base, env, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) };
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error(`server did not start:\n${log}`);
}

const jsonClient = (base) => async (method, url, body, token) => {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data.data;
};

/** The bundled sample clip over HTTP with Range support (a CDN's behaviour; seeking needs it). */
async function startMediaServer(file = path.join(ROOT, 'database', 'seed', 'sample.webm')) {
  const bytes = fs.readFileSync(file);
  const server = http.createServer((req, res) => {
    const size = bytes.length;
    const headers = { 'Content-Type': 'video/webm', 'Accept-Ranges': 'bytes' };
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range || '');
    if (m) {
      const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
      const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
      if (start >= size || start > end) return res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': end - start + 1 });
      return res.end(bytes.subarray(start, end + 1));
    }
    res.writeHead(200, { ...headers, 'Content-Length': size });
    res.end(bytes);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: (name) => `http://127.0.0.1:${port}/${name}.webm`, close: () => (server.closeAllConnections(), new Promise((r) => server.close(r))) };
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

module.exports = { ROOT, withDatabase, startServer, jsonClient, startMediaServer, median };
