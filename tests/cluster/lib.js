'use strict';
/**
 * Two (or more) Branchify processes on one PostgreSQL schema behind nginx from Debian's packages,
 * for tests/cluster/run.js and tests/bench/cluster.js. nginx runs in the foreground with its own
 * prefix, pid file and logs in a temporary directory; the app processes start as `npm start` does.
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { freshSecrets } = require('../harness/context');
const { startServer } = require('../bench/lib');

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * The nginx configuration docs/operations.md shows, for local ports: one upstream of the app
 * processes, keep-alive connections to them closed by nginx before Node would (4 s < Node's 5 s),
 * and a refused or reset connection retried on the next process.
 */
const nginxConf = ({ dir, listen, upstreams }) => `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream branchify {
${upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 32;
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${listen};
    client_max_body_size 10m;
    location / {
      proxy_pass http://branchify;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 2;
    }
  }
}
`;

/** Starts nginx in the foreground on a free port in front of `upstreams`; resolves once it answers. */
async function startNginx({ dir, upstreams }) {
  if (!NGINX) throw new Error('nginx is not installed (apt-get install -y nginx)');
  const listen = await freePort();
  fs.mkdirSync(dir, { recursive: true, mode: 0o777 });
  fs.chmodSync(dir, 0o777);
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConf({ dir, listen, upstreams }));
  const test = spawnSync(NGINX, ['-t', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', conf], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}`);
  const child = spawn(NGINX, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', conf], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${listen}`;
  for (let i = 0; i < 100; i += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
    const up = await new Promise((resolve) => {
      const socket = net.connect(listen, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGQUIT');
      }),
  };
}

/**
 * App processes on one database (`dbEnv`), all with the same secrets (a token signed by one is
 * good on the other). The first migrates the schema before the others start.
 */
async function startApps({ count, dbEnv, dir, extraEnv = {} }) {
  const shared = { ...freshSecrets(), ...extraEnv };
  const apps = [];
  const start = async (i, port) => {
    const appDir = path.join(dir, `app-${i}`);
    fs.mkdirSync(appDir, { recursive: true });
    const server = await startServer({
      dbEnv,
      dir: appDir,
      port,
      extraEnv: { ...shared, LOG_FILE: path.join(appDir, 'server.log'), PROXY_ENABLED: 'true', PROXY_MAX_IPS_COUNT: '1' },
    });
    // startServer keeps the output for its start-up error only; keep reading so the pipe never fills.
    server.child.stdout.resume();
    server.child.stderr.resume();
    return { ...server, port, logFile: path.join(appDir, 'server.log') };
  };
  for (let i = 0; i < count; i += 1) apps.push(await start(i, await freePort()));
  return {
    apps,
    /** Stops app `i` with SIGTERM and resolves with its exit code. */
    stop: (i) =>
      new Promise((resolve) => {
        const { child } = apps[i];
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
    /** Starts app `i` again on its port. */
    restart: async (i) => {
      apps[i] = await start(i, apps[i].port);
      return apps[i];
    },
    killAll: () => {
      for (const { child } of apps) if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

module.exports = { startNginx, startApps, freePort };
