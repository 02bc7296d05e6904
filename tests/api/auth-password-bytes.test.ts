import path from 'node:path';
import bcrypt from 'bcryptjs';
import { fieldMessages } from '@branchify/shared';
import { openDb } from './support/db';
import { client } from './support/http';
import { findLoggedLink, logLength } from './support/log';
import { adminSession, login, PASSWORD, registerUser, uniqueEmail } from './support/users';
import { runScript } from './support/run-script';

/**
 * bcrypt reads only the first 72 bytes of a password: whatever follows would be silently ignored,
 * so every way of setting a password refuses more than 72 bytes of UTF-8 (not characters).
 */
const db = openDb();
afterAll(() => db.destroy());

const TOO_LONG = fieldMessages.maxBytes('password', 72);
const script = path.join(__dirname, '..', '..', 'scripts', 'create-admin.js');

// Each of these is at most 72 characters, but more than 72 bytes once encoded.
const OVER = {
  ascii: 'a'.repeat(73),
  accents: 'é'.repeat(37), // 2 bytes each: 74 bytes in 37 characters
  cjk: '密'.repeat(25), // 3 bytes each: 75 bytes
  emoji: '🔑'.repeat(19), // 4 bytes each: 76 bytes
  mixed: `${'x'.repeat(70)}é€`, // 70 + 2 + 3 = 75 bytes in 72 characters
};
// Exactly 72 bytes: the longest a password may be.
const AT_LIMIT = {
  ascii: 'b'.repeat(72),
  accents: 'ü'.repeat(36),
  emoji: '🔒'.repeat(18),
};

const bodyWith = (password: string) => ({ password, password_confirmation: password });

describe('passwords longer than 72 bytes', () => {
  it.each(Object.entries(OVER))('registration refuses a %s password over 72 bytes', async (_kind, password) => {
    const email = uniqueEmail('long-pass');
    const res = await client().post('/api/auth/register', { first_name: 'Long', last_name: 'Pass', email, ...bodyWith(password) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ password: [TOO_LONG] });
    expect(await db('up_users').where({ email }).first()).toBeUndefined();
  });

  it.each(Object.entries(AT_LIMIT))('registration takes a %s password of exactly 72 bytes, and only that password signs in', async (_kind, password) => {
    expect(Buffer.byteLength(password)).toBe(72);
    const user = await registerUser({ password });
    await login(user.email, password);
    const shorter = [...password].slice(0, -1).join('');
    expect((await client().post('/api/auth/login', { email: user.email, password: shorter })).status).toBe(422);
  });

  it('changing the password refuses one over 72 bytes and keeps the old one', async () => {
    const user = await registerUser();
    for (const password of Object.values(OVER)) {
      const res = await user.http.post('/api/auth/password/change', { current_password: PASSWORD, ...bodyWith(password) }, user.token);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ password: [TOO_LONG] });
    }
    expect((await user.http.get('/api/auth/user', user.token)).status).toBe(200);
    await login(user.email, PASSWORD);
  });

  it('a reset refuses one over 72 bytes and leaves the link usable', async () => {
    const user = await registerUser();
    const before = logLength();
    await client().post('/api/auth/password/forgot', { email: user.email });
    const token = new URL((await findLoggedLink('reset', user.email.toLowerCase(), before))!).searchParams.get('token')!;
    const http = client();
    for (const password of [OVER.accents, OVER.emoji]) {
      const res = await http.post('/api/auth/password/reset', { token, email: user.email, ...bodyWith(password) });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ password: [TOO_LONG] });
    }
    const ok = await http.post('/api/auth/password/reset', { token, email: user.email, ...bodyWith(AT_LIMIT.accents) });
    expect(ok.status).toBe(200);
    await login(user.email, AT_LIMIT.accents);
  });

  it('an admin cannot create an account with one', async () => {
    const admin = await adminSession();
    const email = uniqueEmail('admin-long-pass');
    const res = await admin.http.post('/api/admin/users', { first_name: 'Long', last_name: 'Pass', email, ...bodyWith(OVER.mixed) }, admin.token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ password: [TOO_LONG] });
    expect(await db('up_users').where({ email }).first()).toBeUndefined();
  });

  it('create-admin refuses one before writing anything', async () => {
    const email = uniqueEmail('cli-long-pass');
    const result = await runScript(script, ['--email', email, '--password', OVER.accents]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`password: ${TOO_LONG}`);
    expect(await db('up_users').where({ email }).first()).toBeUndefined();
  });

  it('an account whose stored password is longer (set before the rule) still signs in with it', async () => {
    const user = await registerUser();
    const legacy = `${'legacy-'.repeat(12)}tail`; // 88 bytes
    // As an earlier version stored it: bcrypt of the whole string.
    await db('up_users')
      .where({ id: user.id })
      .update({ password: bcrypt.hashSync(legacy, 10) });
    const session = await login(user.email, legacy);
    expect((await client().get('/api/auth/user', session.token)).status).toBe(200);
    // And can move to a password within the limit, giving the long one as the current password.
    const changed = await session.http.post('/api/auth/password/change', { current_password: legacy, ...bodyWith(PASSWORD) }, session.token);
    expect(changed.status).toBe(200);
    await login(user.email, PASSWORD);
  });
});
