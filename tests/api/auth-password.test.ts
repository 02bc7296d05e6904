import { client } from './support/http';
import { findLoggedLink, logLength } from './support/log';
import { login, PASSWORD, registerUser, uniqueEmail } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

const NEW_PASSWORD = 'a-brand-new-secret-9';
const refresh = (cookie: string | undefined) =>
  client()
    .post('/api/auth/refresh-token')
    .set('Cookie', cookie ?? '');

describe('POST /api/auth/password/change', () => {
  it("changes the password, answers 'Password changed successfully' and ends every session", async () => {
    const user = await registerUser();
    const res = await user.http.post(
      '/api/auth/password/change',
      { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      user.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Password changed successfully' });
    expect((await user.http.get('/api/auth/user', user.token)).status).toBe(401);
    expect((await refresh(user.cookie)).status).toBe(401);
    expect((await client().post('/api/auth/login', { email: user.email, password: PASSWORD })).status).toBe(422);
    await login(user.email, NEW_PASSWORD);
  });

  it('refuses a wrong current password and a mismatched confirmation', async () => {
    const user = await registerUser();
    const wrong = await user.http.post(
      '/api/auth/password/change',
      { current_password: 'not-it-at-all', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      user.token,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ current_password: ['The current password is incorrect.'] });
    const mismatch = await user.http.post(
      '/api/auth/password/change',
      { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: 'different-thing' },
      user.token,
    );
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.password).toEqual(['The password field confirmation does not match.']);
    const empty = await user.http.post('/api/auth/password/change', {}, user.token);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['current_password', 'password']);
    // Nothing changed: the old password still logs in.
    await login(user.email, PASSWORD);
  });

  it('needs a session', async () => {
    expect((await client().post('/api/auth/password/change', {})).status).toBe(401);
  });
});

describe('forgot and reset password', () => {
  it('answers the same for an unknown address and writes no link', async () => {
    const email = uniqueEmail('nobody');
    const before = logLength();
    const res = await client().post('/api/auth/password/forgot', { email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Password Reset Link Sent', data: null });
    expect(await findLoggedLink('reset', email, before)).toBeUndefined();
  });

  it('resets through the logged link once, and revokes the old sessions', async () => {
    const user = await registerUser();
    const before = logLength();
    const res = await client().post('/api/auth/password/forgot', { email: user.email });
    expect(res.body).toEqual({ success: true, message: 'Password Reset Link Sent', data: null });
    const link = await findLoggedLink('reset', user.email.toLowerCase(), before);
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.pathname).toBe('/password-reset');
    const token = url.searchParams.get('token')!;
    expect(url.searchParams.get('email')).toBe(user.email.toLowerCase());

    const stored = await suite.db('branchify_password_resets').where({ user_id: user.id });
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toBe(token);

    const reset = await client().post('/api/auth/password/reset', {
      token,
      email: user.email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ success: true, message: 'Password Updated successfully' });
    await login(user.email, NEW_PASSWORD);
    expect((await user.http.get('/api/auth/user', user.token)).status).toBe(401);
    expect((await refresh(user.cookie)).status).toBe(401);

    const again = await client().post('/api/auth/password/reset', {
      token,
      email: user.email,
      password: 'yet-another-pass-1',
      password_confirmation: 'yet-another-pass-1',
    });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ email: ['This password reset token is invalid or has expired.'] });
  });

  it("refuses another account's token, an expired token and bad input", async () => {
    const owner = await registerUser();
    const other = await registerUser();
    const before = logLength();
    await client().post('/api/auth/password/forgot', { email: owner.email });
    const token = new URL((await findLoggedLink('reset', owner.email.toLowerCase(), before))!).searchParams.get('token')!;

    const foreign = await client().post('/api/auth/password/reset', { token, email: other.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(foreign.status).toBe(422);

    await suite
      .db('branchify_password_resets')
      .where({ user_id: owner.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await client().post('/api/auth/password/reset', { token, email: owner.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(expired.status).toBe(422);
    expect(expired.body.errors.email).toEqual(['This password reset token is invalid or has expired.']);

    const invalid = await client().post('/api/auth/password/reset', { email: 'x' });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['email', 'password', 'token']);
    await login(owner.email, PASSWORD);
  });

  it('a newer reset link leaves the older one working until one is used', async () => {
    const user = await registerUser();
    let before = logLength();
    await client().post('/api/auth/password/forgot', { email: user.email });
    const first = new URL((await findLoggedLink('reset', user.email.toLowerCase(), before))!).searchParams.get('token')!;
    before = logLength();
    await client().post('/api/auth/password/forgot', { email: user.email });
    const second = new URL((await findLoggedLink('reset', user.email.toLowerCase(), before))!).searchParams.get('token')!;
    expect(second).not.toBe(first);
    const older = await client().post('/api/auth/password/reset', {
      token: first,
      email: user.email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(older.status).toBe(200);
    const spent = await client().post('/api/auth/password/reset', {
      token: second,
      email: user.email,
      password: 'yet-another-pass-1',
      password_confirmation: 'yet-another-pass-1',
    });
    expect(spent.status).toBe(422);
  });
});
