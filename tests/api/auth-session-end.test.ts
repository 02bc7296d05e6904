import { MESSAGES, SESSION_HINT_COOKIE } from '@branchify/shared';
import { client } from './support/http';
import { adminSession, login, PASSWORD, registerUser, verifiedUser } from './support/users';

const setCookies = (res: { headers: Record<string, unknown> }): string[] => (res.headers['set-cookie'] as string[] | undefined) ?? [];
const hintOf = (res: { headers: Record<string, unknown> }): string | undefined => setCookies(res).find((c) => c.startsWith(`${SESSION_HINT_COOKIE}=`));

describe('the session hint cookie', () => {
  it('is set, readable by the page and site-wide, with every refresh cookie', async () => {
    const user = await verifiedUser();
    const res = await client().post('/api/auth/login', { email: user.email, password: PASSWORD });
    expect(res.status).toBe(200);
    const hint = hintOf(res)!;
    expect(hint).toMatch(new RegExp(`^${SESSION_HINT_COOKIE}=1;`));
    expect(hint).toMatch(/path=\/(;|$)/i);
    expect(hint).not.toMatch(/httponly/i);
    expect(hint).toMatch(/expires=/i);

    const session = await login(user.email, PASSWORD);
    const refreshed = await client().post('/api/auth/refresh-token').set('Cookie', session.cookie!);
    expect(refreshed.status).toBe(200);
    expect(hintOf(refreshed)).toMatch(new RegExp(`^${SESSION_HINT_COOKIE}=1;`));
  });

  it('is cleared with the refresh cookie: on logout and on a refused refresh', async () => {
    const user = await registerUser();
    const session = await login(user.email, PASSWORD);
    const out = await client().post('/api/auth/logout').set('Cookie', session.cookie!);
    expect(out.status).toBe(200);
    expect(hintOf(out)).toMatch(new RegExp(`^${SESSION_HINT_COOKIE}=;.*expires=Thu, 01 Jan 1970`, 'i'));

    const refused = await client().post('/api/auth/refresh-token').set('Cookie', session.cookie!);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(MESSAGES.unauthenticated);
    expect(hintOf(refused)).toMatch(new RegExp(`^${SESSION_HINT_COOKIE}=;`));
  });
});

describe('a session ended by a suspension', () => {
  it("says why to the holder of the user's own tokens, and only 'Unauthenticated.' to anyone else", async () => {
    const admin = await adminSession();
    const user = await verifiedUser();
    const session = await login(user.email, PASSWORD);
    const res = await admin.http.put(
      `/api/admin/users/${user.id}`,
      { status: 'suspended', status_note: 'Chargeback fraud', current_status_ends_at: '' },
      admin.token,
    );
    expect(res.status).toBe(200);

    const me = await session.http.get('/api/auth/user', session.token);
    expect({ status: me.status, message: me.body.message }).toEqual({ status: 401, message: MESSAGES.accountSuspended });
    const refresh = await client().post('/api/auth/refresh-token').set('Cookie', session.cookie!);
    expect({ status: refresh.status, message: refresh.body.message }).toEqual({ status: 401, message: MESSAGES.accountSuspended });
    expect(hintOf(refresh)).toMatch(new RegExp(`^${SESSION_HINT_COOKIE}=;`));

    // A forged or made-up token learns nothing about the account.
    const [head, body] = session.token.split('.');
    const forged = await client().get('/api/auth/user').set('Authorization', `Bearer ${head}.${body}.AAAA`);
    expect({ status: forged.status, message: forged.body.message }).toEqual({ status: 401, message: MESSAGES.unauthenticated });
    const unknown = await client().post('/api/auth/refresh-token').set('Cookie', 'branchify_refresh=made-up-token');
    expect({ status: unknown.status, message: unknown.body.message }).toEqual({ status: 401, message: MESSAGES.unauthenticated });

    // Reactivated: the old session stays ended, as any revoked session does.
    expect((await admin.http.put(`/api/admin/users/${user.id}`, { status: 'active' }, admin.token)).status).toBe(200);
    const after = await session.http.get('/api/auth/user', session.token);
    expect({ status: after.status, message: after.body.message }).toEqual({ status: 401, message: MESSAGES.unauthenticated });
  });
});
