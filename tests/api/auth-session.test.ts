import { client, refreshCookie } from './support/http';
import { registerUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

const refresh = (cookie: string | undefined, http = client()) => http.post('/api/auth/refresh-token').set('Cookie', cookie ?? '');

describe('POST /api/auth/refresh-token', () => {
  it('rotates the refresh cookie and returns a new access token', async () => {
    const user = await registerUser();
    const res = await refresh(user.cookie, user.http);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.access_token).toEqual(expect.any(String));
    const next = refreshCookie(res);
    expect(next).toBeDefined();
    expect(next).not.toBe(user.cookie);
    expect((await user.http.get('/api/auth/user', res.body.data.access_token)).status).toBe(200);
    expect((await refresh(next, user.http)).status).toBe(200);
  });

  it('answers 401 without a cookie or with an unknown one', async () => {
    expect((await refresh(undefined)).body).toEqual({ success: false, message: 'Unauthenticated.' });
    expect((await refresh('branchify_refresh=forged')).status).toBe(401);
  });

  it('stores refresh tokens hashed, never as issued', async () => {
    const user = await registerUser();
    const raw = user.cookie!.split('=')[1]!;
    const rows = await suite.db('branchify_refresh_tokens').where({ user_id: user.id });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.token_hash)).not.toContain(raw);
  });

  it('revokes the whole session family when a rotated token is presented again', async () => {
    const user = await registerUser();
    const first = await refresh(user.cookie, user.http);
    const current = refreshCookie(first);
    // The old token was rotated a while ago (past the two-tabs grace window): this is theft.
    await suite
      .db('branchify_refresh_tokens')
      .whereNotNull('rotated_at')
      .andWhere({ user_id: user.id })
      .update({ rotated_at: new Date(Date.now() - 60_000) });
    expect((await refresh(user.cookie, user.http)).status).toBe(401);
    expect((await refresh(current, user.http)).status).toBe(401);
  });

  it('lets five tabs restoring at once race without revoking the session: each gets a pair that works', async () => {
    const user = await registerUser();
    const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(user.cookie, user.http)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const cookies = answers.map((a) => refreshCookie(a)!);
    expect(new Set(cookies).size).toBe(5);
    for (const cookie of cookies) expect((await refresh(cookie, user.http)).status).toBe(200);
    expect(await suite.db('branchify_refresh_tokens').where({ user_id: user.id }).whereNotNull('revoked_at')).toHaveLength(0);
  });

  it('refuses an expired refresh token', async () => {
    const user = await registerUser();
    await suite
      .db('branchify_refresh_tokens')
      .where({ user_id: user.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await refresh(user.cookie, user.http)).status).toBe(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the refresh token and clears the cookie', async () => {
    const user = await registerUser();
    const res = await user.http.post('/api/auth/logout', {}, user.token).set('Cookie', user.cookie!);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const cleared = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('branchify_refresh='));
    expect(cleared).toMatch(/expires=Thu, 01 Jan 1970/i);
    expect((await refresh(user.cookie, user.http)).status).toBe(401);
  });

  it('succeeds without a session too', async () => {
    expect((await client().post('/api/auth/logout')).status).toBe(200);
  });
});
