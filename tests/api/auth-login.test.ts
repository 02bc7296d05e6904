import { client, refreshCookie } from './support/http';
import { adminSession, PASSWORD, registerUser, uniqueEmail } from './support/users';

describe('POST /api/auth/login', () => {
  it("answers 'Welcome back!' with an access token, the user and a refresh cookie", async () => {
    const user = await registerUser();
    const res = await client().post('/api/auth/login', { email: user.email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Welcome back!' });
    expect(res.body.data.access_token).toEqual(expect.any(String));
    expect(res.body.data.user).toMatchObject({ id: user.id, email: user.email.toLowerCase(), is_admin: false });
    expect(refreshCookie(res)).toMatch(/^branchify_refresh=.+/);
    expect(JSON.stringify(res.body)).not.toMatch(/"password"|\$2[aby]\$/);
  });

  it('accepts the email in any case', async () => {
    const user = await registerUser();
    const res = await client().post('/api/auth/login', { email: user.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
  });

  it('takes a password exactly as it was chosen, spaces at either end included', async () => {
    const chosen = '  spaced secret  ';
    const user = await registerUser({ password: chosen });
    expect((await client().post('/api/auth/login', { email: user.email, password: chosen })).status).toBe(200);
    // The spaces are part of it: without them it is another password.
    expect((await client().post('/api/auth/login', { email: user.email, password: chosen.trim() })).status).toBe(422);
    const change = await client().post(
      '/api/auth/password/change',
      { current_password: chosen, password: ' new spaced ', password_confirmation: ' new spaced ' },
      user.token,
    );
    expect(change.status).toBe(200);
    expect((await client().post('/api/auth/login', { email: user.email, password: ' new spaced ' })).status).toBe(200);
  });

  it('gives the same answer for a wrong password and an unknown account', async () => {
    const user = await registerUser();
    const wrong = await client().post('/api/auth/login', { email: user.email, password: 'not-the-password' });
    const unknown = await client().post('/api/auth/login', { email: uniqueEmail('ghost'), password: 'whatever-pass' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        success: false,
        message: 'These credentials do not match our records.',
        errors: { email: ['These credentials do not match our records.'] },
      });
    }
  });

  it('validates the fields', async () => {
    const res = await client().post('/api/auth/login', { email: 'nope' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      email: ['The email field must be a valid email address.'],
      password: ['The password field is required.'],
    });
  });

  it('routes an admin by role: the user payload says is_admin', async () => {
    const admin = await adminSession();
    const me = await admin.http.get('/api/auth/user', admin.token);
    expect(me.body.data).toMatchObject({ is_admin: true, subscription: null });
  });
});

describe('GET /api/auth/user', () => {
  it('answers 401 Unauthenticated. without a token, with a bad one, and with a wrong scheme', async () => {
    const http = client();
    for (const res of [
      await http.get('/api/auth/user'),
      await http.get('/api/auth/user', 'not-a-jwt'),
      await http.get('/api/auth/user').set('Authorization', 'Basic abc'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
    }
  });

  it('refuses a token signed with another key or expired', async () => {
    const jwt = await import('jsonwebtoken');
    const user = await registerUser();
    const forged = jwt.sign({ tv: 0 }, 'some-other-secret-value', { subject: String(user.id), issuer: 'branchify', audience: 'branchify-api' });
    const expired = jwt.sign({ tv: 0, exp: Math.floor(Date.now() / 1000) - 60 }, process.env.JWT_SECRET!, {
      subject: String(user.id),
      issuer: 'branchify',
      audience: 'branchify-api',
    });
    expect((await user.http.get('/api/auth/user', forged)).status).toBe(401);
    expect((await user.http.get('/api/auth/user', expired)).status).toBe(401);
  });

  it('returns only the caller, never another account', async () => {
    const alice = await registerUser();
    const bob = await registerUser();
    const res = await alice.http.get('/api/auth/user', alice.token);
    expect(res.body.data.id).toBe(alice.id);
    expect(res.body.data.id).not.toBe(bob.id);
    expect(Object.keys(res.body.data).sort()).toEqual(
      [
        'created_at',
        'email',
        'email_verified_at',
        'first_name',
        'id',
        'is_admin',
        'last_name',
        'status',
        'status_note',
        'subscription',
        'subscription_id',
        'updated_at',
      ].sort(),
    );
  });
});
