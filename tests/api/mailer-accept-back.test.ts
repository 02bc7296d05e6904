// @serial: changes the mailer for the whole install (tests/harness/groups.js)
import { configureMailer, removeMailer, smtpSettings } from './support/mail';
import { useApiSuite } from './support/suite';

/**
 * PUT admin/mailer takes back what GET admin/mailer served: the password comes masked and the
 * mask means "keep the stored one"; the flags (has_password, configured, verified_at) are
 * read-only and ignored.
 */
const suite = useApiSuite();

const served = async () => (await suite.admin.http.get('/api/admin/mailer', suite.admin.token)).body.data;
const put = (body: object) => suite.admin.http.put('/api/admin/mailer', body, suite.admin.token);
const stored = () => suite.db('branchify_mailer_settings').first();

beforeAll(async () => {
  await configureMailer(suite.admin);
  const verified = await suite.admin.http.post('/api/admin/mailer/verify', {}, suite.admin.token);
  expect(verified.status).toBe(200);
});
afterAll(async () => {
  await removeMailer();
});

describe('PUT admin/mailer takes back what GET served', () => {
  it('serves the password masked, never in full', async () => {
    const view = await served();
    expect(view.password).toBe('********');
    expect(view.has_password).toBe(true);
    expect(JSON.stringify(view)).not.toContain(String(smtpSettings().password));
  });

  it('the record as served: 200, the password and the verification kept, the row unchanged', async () => {
    const before = await served();
    const rowBefore = await stored();
    expect(before.verified_at).not.toBeNull();
    const res = await put(before);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Transactional email updated successfully');
    expect(await served()).toEqual(before);
    const row = await stored();
    expect(row.password_encrypted).toBe(rowBefore.password_encrypted);
    expect({ ...row, updated_at: null, updatedAt: null }).toEqual({ ...rowBefore, updated_at: null, updatedAt: null });
    // Still the real password: the SMTP server accepts it.
    expect((await suite.admin.http.post('/api/admin/mailer/verify', {}, suite.admin.token)).status).toBe(200);
  });

  it('tampered read-only flags are ignored', async () => {
    const before = await served();
    const res = await put({ ...before, has_password: false, configured: false, verified_at: '1999-01-01T00:00:00.000Z' });
    expect(res.status).toBe(200);
    expect(await served()).toEqual(before);
  });

  it('a new password replaces the stored one and asks for a new verification', async () => {
    const before = await served();
    const rowBefore = await stored();
    const res = await put({ ...before, password: 'a-different-password' });
    expect(res.status).toBe(200);
    const after = await served();
    expect(after.verified_at).toBeNull();
    expect((await stored()).password_encrypted).not.toBe(rowBefore.password_encrypted);
    const verify = await suite.admin.http.post('/api/admin/mailer/verify', {}, suite.admin.token);
    expect(verify.status).toBe(422);
    expect(Object.keys(verify.body.errors)).toEqual(['password']);
    await configureMailer(suite.admin);
  });

  it('the mask without a stored password is no password (422 password)', async () => {
    await put({ ...smtpSettings(), username: '', password: '' });
    const res = await put({ ...smtpSettings(), password: '********' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['password']);
    await configureMailer(suite.admin);
  });
});
