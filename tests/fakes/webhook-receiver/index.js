'use strict';
/**
 * An HTTPS webhook receiver for the suites. Its certificate is self-signed and made at start
 * with the openssl CLI (node cannot make certificates) for 127.0.0.2, a loopback address the
 * app is told to allow (WEBHOOKS_ALLOWED_PRIVATE_ADDRESSES) and to trust (WEBHOOKS_CA_FILE);
 * every other private address stays refused. Each suite uses its own path; a control server
 * on 127.0.0.1 scripts the answers per path and lists what arrived.
 *
 *   POST /script {path, statuses: [500, 500, 200]}  answers in turn (then 200)
 *   GET  /requests?path=/x                           [{ headers, body, status, at }]
 */
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const HOST = '127.0.0.2';

const makeCertificate = (dir) => {
  const key = path.join(dir, 'webhook-receiver.key');
  const cert = path.join(dir, 'webhook-receiver.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=webhook-receiver.test',
      '-addext',
      `subjectAltName=IP:${HOST}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8'), certFile: cert };
};

const listen = (server, host) =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve(server.address().port));
  });

async function startWebhookReceiver({ tmpDir }) {
  const { key, cert, certFile } = makeCertificate(tmpDir);
  const scripts = new Map();
  const received = new Map();

  const receiver = https.createServer({ key, cert }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url, `https://${HOST}`);
      const queue = scripts.get(url.pathname) ?? [];
      const status = queue.length ? queue.shift() : 200;
      const list = received.get(url.pathname) ?? [];
      list.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status, at: Date.now() });
      received.set(url.pathname, list);
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'ok' : 'not now');
    });
  });
  const control = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://control');
      const reply = (status, body) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/script') {
        const { path: p, statuses } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        scripts.set(p, [...statuses]);
        return reply(200, { ok: true });
      }
      if (req.method === 'GET' && url.pathname === '/requests') return reply(200, received.get(url.searchParams.get('path')) ?? []);
      return reply(404, { error: 'unknown' });
    });
  });

  const port = await listen(receiver, HOST);
  const controlPort = await listen(control, '127.0.0.1');
  return {
    url: `https://${HOST}:${port}`,
    host: HOST,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    certFile,
    stop: () => Promise.all([new Promise((r) => receiver.close(r)), new Promise((r) => control.close(r))]),
  };
}

module.exports = { startWebhookReceiver };
