// @serial: changes the update state for the whole install (tests/harness/groups.js)
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { client } from './support/http';
import { feed, resetUpdates } from './support/updates';
import { verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

const LICENSE = 'BRFY-TEST-KEY-1234';

const updatesDir = () => process.env.UPDATES_DIR!;
/** The version the `current` switch points at, or null before any update. */
const currentVersion = (): string | null => {
  const manifest = path.join(updatesDir(), 'current', 'package.json');
  return fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version : null;
};
const leftovers = () => ['downloads', 'staging'].flatMap((d) => (fs.existsSync(path.join(updatesDir(), d)) ? fs.readdirSync(path.join(updatesDir(), d)) : []));

const post = (route: string, body: object = {}) => suite.admin.http.post(`/api/admin/updates/${route}`, body, suite.admin.token);
const info = async () => (await suite.admin.http.get('/api/admin/updates/info', suite.admin.token)).body.data;

beforeAll(async () => {
  // Whatever another suite left: no key, never updated.
  await resetUpdates();
  await feed('release', { version: '2.1.0' });
});
afterAll(async () => {
  await resetUpdates();
});

describe('updates: access and license key', () => {
  it('is admin only: 401 anonymous, 403 for a user', async () => {
    const user = await verifiedUser();
    const anonymous = client();
    const gets = ['info', 'is-token-registered'];
    const posts = ['save-license-key', 'download', 'apply', 'update-app'];
    for (const route of gets) {
      expect((await anonymous.get(`/api/admin/updates/${route}`)).status).toBe(401);
      expect((await user.http.get(`/api/admin/updates/${route}`, user.token)).status).toBe(403);
    }
    for (const route of posts) {
      expect((await anonymous.post(`/api/admin/updates/${route}`, { license_key: LICENSE })).status).toBe(401);
      expect((await user.http.post(`/api/admin/updates/${route}`, { license_key: LICENSE }, user.token)).status).toBe(403);
    }
    expect((await suite.admin.http.get('/api/admin/updates/is-token-registered', suite.admin.token)).body.data).toEqual({ registered: false });
  });

  it('without a license key: info shows none and downloading asks for one', async () => {
    const data = await info();
    expect(data).toMatchObject({ current_version: '2.0.7', license_key: null, update_available: false, feed_configured: true });
    const res = await post('download');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ license_key: ['A license key is required before updating.'] });
  });

  it('validates the license key (422 keyed license_key)', async () => {
    for (const license_key of [undefined, '', 'a b', 'x'.repeat(300)]) {
      const res = await post('save-license-key', { license_key });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['license_key']);
    }
  });

  it('saves the key encrypted and shows it masked; info then reports the newer version', async () => {
    const res = await post('save-license-key', { license_key: LICENSE });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'License key saved', data: { license_key: '****-1234' } });
    const row = await suite.db('branchify_update_state').first();
    expect(row.license_key_encrypted).toBeTruthy();
    expect(row.license_key_encrypted).not.toContain(LICENSE);
    expect((await suite.admin.http.get('/api/admin/updates/is-token-registered', suite.admin.token)).body.data).toEqual({ registered: true });
    expect(await info()).toMatchObject({ current_version: '2.0.7', latest_version: '2.1.0', update_available: true, license_key: '****-1234' });
    expect(JSON.stringify(await info())).not.toContain(LICENSE);
  });

  it('takes back the masked key it served: the stored key stays', async () => {
    const row = await suite.db('branchify_update_state').first();
    const res = await post('save-license-key', { license_key: (await info()).license_key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'License key saved', data: { license_key: '****-1234' } });
    expect((await suite.db('branchify_update_state').first()).license_key_encrypted).toBe(row.license_key_encrypted);
    // Another mask is no key.
    expect((await post('save-license-key', { license_key: '****-9999' })).status).toBe(422);
  });

  it('a key the vendor refuses is reported on license_key', async () => {
    await post('save-license-key', { license_key: process.env.BRANCHIFY_UPDATE_FEED_REVOKED_KEY });
    try {
      const res = await post('download');
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ license_key: ['The update server refused this license key.'] });
    } finally {
      await post('save-license-key', { license_key: LICENSE });
    }
  });
});

describe('updates: download and apply', () => {
  it('apply without a download answers 409', async () => {
    const res = await post('apply');
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('There is no downloaded update to apply. Download the update first.');
  });

  it('refuses a tampered package (hash mismatch) and changes nothing', async () => {
    await feed('mode', { mode: 'tampered' });
    const res = await post('download');
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ success: false, message: 'The update package failed its integrity check and was discarded. Nothing was changed.' });
    expect((await post('apply')).status).toBe(409);
    expect(leftovers()).toEqual([]);
    expect(currentVersion()).toBeNull();
    expect((await info()).downloaded_version).toBeNull();
  });

  it('refuses a wrongly signed release before downloading it', async () => {
    await feed('mode', { mode: 'bad-signature' });
    await feed('reset', {});
    const res = await post('update-app');
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('The update package failed its integrity check and was discarded. Nothing was changed.');
    const { requests } = await feed('state');
    expect(requests.some((r) => r.url.startsWith('/packages/'))).toBe(false);
    expect(leftovers()).toEqual([]);
    expect(currentVersion()).toBeNull();
  });

  it('reports an unreachable update server without crashing', async () => {
    await feed('mode', { mode: 'down' });
    const res = await post('download');
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('The update server could not be reached. Please try again later.');
    const shown = await suite.admin.http.get('/api/admin/updates/info', suite.admin.token);
    expect(shown.status).toBe(200);
    expect(shown.body.data.check_error).toBe('The update server could not be reached. Please try again later.');
  });

  it('downloads, verifies and applies a good package', async () => {
    await feed('mode', { mode: 'good' });
    const downloaded = await post('download');
    expect(downloaded.status).toBe(200);
    expect(downloaded.body.message).toBe('Update downloaded successfully');
    expect(downloaded.body.data.downloaded_version).toBe('2.1.0');
    const { requests } = await feed('state');
    expect(requests.filter((r) => r.url.startsWith('/packages/')).every((r) => r.license_key === LICENSE)).toBe(true);

    const applied = await post('apply');
    expect(applied.status).toBe(200);
    expect(applied.body.message).toBe('App updated successfully');
    expect(applied.body.data).toMatchObject({ applied_version: '2.1.0', update_available: false, restart_required: true, downloaded_version: null });
    expect(currentVersion()).toBe('2.1.0');
    expect(fs.readFileSync(path.join(updatesDir(), 'current', 'server', 'index.js'), 'utf8')).toContain('2.1.0');
    expect(leftovers()).toEqual([]);

    const again = await post('download');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The application is already up to date.');
  });

  it('update-app downloads and applies in one call', async () => {
    await feed('release', { version: '2.2.0' });
    expect((await info()).update_available).toBe(true);
    const res = await post('update-app');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('App updated successfully');
    expect(currentVersion()).toBe('2.2.0');
    expect((await info()).applied_version).toBe('2.2.0');
  });

  it('a package altered on disk after download is refused at apply; the running release stays', async () => {
    await feed('release', { version: '2.3.0' });
    expect((await post('download')).status).toBe(200);
    const row = await suite.db('branchify_update_state').first();
    fs.appendFileSync(row.downloaded_path, Buffer.from('tampered'));
    const res = await post('apply');
    expect(res.status).toBe(502);
    expect(currentVersion()).toBe('2.2.0');
    expect(leftovers()).toEqual([]);
  });

  it('a tampered newer release leaves the applied one in place', async () => {
    await feed('release', { version: '2.4.0' });
    await feed('mode', { mode: 'tampered' });
    const res = await post('update-app');
    expect(res.status).toBe(502);
    expect(currentVersion()).toBe('2.2.0');
    expect((await info()).applied_version).toBe('2.2.0');
  });
});

describe('updates: the license key goes to the update feed and nowhere else', () => {
  /** A server on another origin (same loopback host, another port) that would love the key. */
  let heard: Array<{ url: string; license: string | undefined }> = [];
  const elsewhere = http.createServer((req, res) => {
    heard.push({ url: req.url ?? '', license: req.headers['x-license-key'] as string | undefined });
    res.writeHead(200, { 'content-type': 'application/gzip' });
    res.end('not a package');
  });
  let elsewhereUrl: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}/steal.tar.gz`;
    await feed('release', { version: '2.9.0' });
  });
  afterEach(async () => {
    heard = [];
    await feed('mode', { mode: 'good' });
  });
  afterAll(() => new Promise((resolve) => elsewhere.close(resolve)));

  it("refuses a package URL on another origin than the feed's", async () => {
    await feed('mode', { mode: 'elsewhere', target: elsewhereUrl });
    const res = await post('download');
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('The update server could not be reached. Please try again later.');
    expect(heard).toEqual([]);
  });

  it('does not follow a redirect of the package download', async () => {
    await feed('mode', { mode: 'redirect', target: elsewhereUrl });
    const res = await post('download');
    expect(res.status).toBe(502);
    expect(heard).toEqual([]);
    expect(leftovers()).toEqual([]);
  });
});
