// @serial: changes the mailer for the whole install (tests/harness/groups.js)
import type { Knex } from 'knex';
import { openDb } from './support/db';
import { configureMailer, removeMailer, smtpSettings } from './support/mail';
import { adminSession, type Session } from './support/users';

/**
 * PUT admin/mailer takes back what GET admin/mailer served: the password comes masked and the
 * mask means "keep the stored one"; the flags (has_password, configured, verified_at) are
 * read-only and ignored.
 */
let db: Knex;
let admin: Session;

const served = async () => (await admin.http.get('/api/admin/mailer', admin.token)).body.data;
const put = (body: object) => admin.http.put('/api/admin/mailer', body, admin.token);
const stored = () => db('branchify_mailer_settings').first();

beforeAll(async () => {
  db = openDb();
  admin = await adminSession();
  await configureMailer(admin);
  const verified = await admin.http.post('/api/admin/mailer/verify', {}, admin.token);
  expect(verified.status).toBe(200);
});
afterAll(async () => {
  await removeMailer();
  await db.destroy();
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
    expect((await admin.http.post('/api/admin/mailer/verify', {}, admin.token)).status).toBe(200);
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
    const verify = await admin.http.post('/api/admin/mailer/verify', {}, admin.token);
    expect(verify.status).toBe(422);
    expect(Object.keys(verify.body.errors)).toEqual(['password']);
    await configureMailer(admin);
  });

  it('the mask without a stored password is no password (422 password)', async () => {
    await put({ ...smtpSettings(), username: '', password: '' });
    const res = await put({ ...smtpSettings(), password: '********' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['password']);
    await configureMailer(admin);
  });
});
