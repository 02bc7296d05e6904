import { MESSAGES } from '@branchify/shared';
import jwt from 'jsonwebtoken';
import { client, refreshCookie } from '../api/support/http';
import { findLoggedLink, logLength } from '../api/support/log';
import { adminSession, login, PASSWORD, registerUser, verifiedUser } from '../api/support/users';
import { useApiSuite } from '../api/support/suite';

const suite = useApiSuite();

const secret = () => process.env.JWT_SECRET!;
/** The claims the server puts in an access token (subject, token version, session, issuer, audience): those of `session`'s own token. */
const claims = (session: { id: number; token: string }, overrides: Record<string, unknown> = {}) => ({
  tv: 0,
  sub: String(session.id),
  sid: (jwt.decode(session.token) as { sid: string }).sid,
  iss: 'branchify',
  aud: 'branchify-api',
  ...overrides,
});
const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;
const me = (token: string) => client().get('/api/auth/user', token);
const refresh = (cookie: string) => client().post('/api/auth/refresh-token').set('Cookie', cookie);
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

const expectUnauthenticated = async (token: string) => {
  const res = await me(token);
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
};

describe('access tokens the server must refuse', () => {
  it('a well-formed token for the right user is accepted (the forgeries below differ in one thing each)', async () => {
    const admin = await adminSession();
    const res = await me(jwt.sign({ ...claims(admin), exp: inTenMinutes() }, secret(), { algorithm: 'HS256' }));
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(admin.id);
  });

  it('expired', async () => {
    const user = await registerUser();
    await expectUnauthenticated(jwt.sign({ ...claims(user), exp: Math.floor(Date.now() / 1000) - 60 }, secret(), { algorithm: 'HS256' }));
  });

  it('tampered (the payload names another user, the signature is the original)', async () => {
    const user = await registerUser();
    const admin = await adminSession();
    const [header, , signature] = user.token.split('.');
    const payload = jwt.decode(user.token) as Record<string, unknown>;
    await expectUnauthenticated(`${header}.${b64({ ...payload, sub: String(admin.id) })}.${signature}`);
  });

  it("alg 'none'", async () => {
    const admin = await adminSession();
    const payload = { ...claims(admin), exp: inTenMinutes() };
    await expectUnauthenticated(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`);
    await expectUnauthenticated(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}`);
  });

  it('signed with another secret, or with another algorithm', async () => {
    const admin = await adminSession();
    await expectUnauthenticated(jwt.sign(claims(admin), 'not-the-server-secret-at-all', { algorithm: 'HS256', expiresIn: 600 }));
    await expectUnauthenticated(jwt.sign(claims(admin), secret(), { algorithm: 'HS512', expiresIn: 600 }));
  });

  it('signed with the right secret for another issuer or audience, or naming no real user', async () => {
    const admin = await adminSession();
    const sign = (payload: object) => jwt.sign({ ...payload, exp: inTenMinutes() }, secret(), { algorithm: 'HS256' });
    await expectUnauthenticated(sign(claims(admin, { iss: 'strapi' })));
    await expectUnauthenticated(sign(claims(admin, { aud: 'someone-else' })));
    // users-permissions' own token shape ({ id }) is not ours.
    await expectUnauthenticated(sign({ id: admin.id }));
    await expectUnauthenticated(sign(claims(admin, { sub: '999999' })));
    await expectUnauthenticated(sign(claims(admin, { sub: `${admin.id}abc` })));
    await expectUnauthenticated(sign(claims(admin, { sid: 'a-session-that-never-was' })));
    await expectUnauthenticated(sign(claims(admin, { tv: 99 })));
  });

  it('presented any other way than as a bearer token', async () => {
    const admin = await adminSession();
    const viaQuery = await client().get(`/api/auth/user?access_token=${admin.token}`);
    expect(viaQuery.status).toBe(401);
    const viaScheme = await client().get('/api/auth/user').set('Authorization', `Basic ${admin.token}`);
    expect(viaScheme.status).toBe(401);
  });

  it("a suspended user's token and refresh cookie, at once", async () => {
    const admin = await adminSession();
    const user = await verifiedUser();
    expect((await me(user.token)).status).toBe(200);
    await admin.http.put(`/api/admin/users/${user.id}`, { status: 'suspended', status_note: 'Tokens' }, admin.token);
    // Refused at once; the holder of the user's own (genuine) token is told why.
    const res = await me(user.token);
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { success: false, message: MESSAGES.accountSuspended } });
    expect((await refresh(user.cookie!)).status).toBe(401);
  });

  it("a deleted user's token and refresh cookie", async () => {
    const admin = await adminSession();
    const user = await verifiedUser();
    expect((await admin.http.delete(`/api/admin/users/${user.id}`, admin.token)).status).toBe(200);
    await expectUnauthenticated(user.token);
    expect((await refresh(user.cookie!)).status).toBe(401);
  });
});

describe('sessions', () => {
  it('presenting a rotated refresh token again (after the grace window) ends the whole session', async () => {
    const user = await registerUser();
    const first = await refresh(user.cookie!);
    expect(first.status).toBe(200);
    const rotated = refreshCookie(first)!;
    // Past the 10 s window in which a second tab's identical request is not theft: the rotation
    // is dated 11 s ago rather than waited for.
    await suite
      .db('branchify_refresh_tokens')
      .whereNotNull('rotated_at')
      .andWhere({ user_id: user.id })
      .update({ rotated_at: new Date(Date.now() - 11_000) });
    expect((await refresh(user.cookie!)).status).toBe(401);
    expect((await refresh(rotated)).status).toBe(401);
  });

  it('logout ends that session’s refresh token and clears the cookie; other sessions stay', async () => {
    const user = await registerUser();
    const other = await login(user.email, PASSWORD);
    const out = await client().post('/api/auth/logout', {}, other.token).set('Cookie', other.cookie!);
    expect(out.status).toBe(200);
    const cleared = (out.headers['set-cookie'] as unknown as string[] | undefined)?.find((c) => c.startsWith('branchify_refresh='));
    expect(cleared).toMatch(/^branchify_refresh=;/);
    expect(cleared).toMatch(/expires=Thu, 01 Jan 1970/i);
    expect((await refresh(other.cookie!)).status).toBe(401);
    expect((await me(user.token)).status).toBe(200);
    expect((await refresh(user.cookie!)).status).toBe(200);
  });

  // A signed-out access token dies with its session, not when it expires (15 min).
  it('logout also ends the access token it was called with', async () => {
    const user = await registerUser();
    expect((await client().post('/api/auth/logout', {}, user.token).set('Cookie', user.cookie!)).status).toBe(200);
    await expectUnauthenticated(user.token);
  });

  it('a password change ends every session and access token', async () => {
    const user = await registerUser();
    const second = await login(user.email, PASSWORD);
    const changed = await user.http.post(
      '/api/auth/password/change',
      { current_password: PASSWORD, password: 'changed-password-7', password_confirmation: 'changed-password-7' },
      user.token,
    );
    expect(changed.status).toBe(200);
    await expectUnauthenticated(user.token);
    await expectUnauthenticated(second.token);
    expect((await refresh(user.cookie!)).status).toBe(401);
    expect((await refresh(second.cookie!)).status).toBe(401);
  });

  it('a password reset ends every session and access token', async () => {
    const user = await verifiedUser();
    const second = await login(user.email, PASSWORD);
    const before = logLength();
    await client().post('/api/auth/password/forgot', { email: user.email });
    const link = await findLoggedLink('reset', user.email, before);
    expect(link).toBeDefined();
    const { token } = Object.fromEntries(new URL(link!).searchParams);
    const reset = await client().post('/api/auth/password/reset', {
      email: user.email,
      token,
      password: 'reset-password-8',
      password_confirmation: 'reset-password-8',
    });
    expect(reset.status).toBe(200);
    await expectUnauthenticated(user.token);
    await expectUnauthenticated(second.token);
    expect((await refresh(user.cookie!)).status).toBe(401);
    expect((await refresh(second.cookie!)).status).toBe(401);
  });
});
