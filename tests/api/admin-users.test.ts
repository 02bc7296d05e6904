import { client, type Client } from './support/http';
import { isPostgres } from './support/db';
import { login, PASSWORD, registerUser, uniqueEmail } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

const newUserBody = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Created',
  last_name: 'ByAdmin',
  email: uniqueEmail('created'),
  password: PASSWORD,
  password_confirmation: PASSWORD,
  ...overrides,
});

describe('admin routes are for admins only', () => {
  const everyRoute = (http: Client, token?: string) => [
    http.get('/api/admin/users', token),
    http.get('/api/admin/users/1', token),
    http.post('/api/admin/users', newUserBody(), token),
    http.put('/api/admin/users/1', { status: 'suspended', status_note: 'x' }, token),
    http.delete('/api/admin/users/1', token),
    http.post('/api/admin/users/1/verify-email', {}, token),
  ];

  it('answers 401 without a token and 403 to a regular user', async () => {
    for (const res of await Promise.all(everyRoute(client()))) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
    }
    const user = await registerUser();
    for (const res of await Promise.all(everyRoute(user.http, user.token))) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, message: 'This action is unauthorized.' });
    }
    // Nothing happened to user 1 (the install's admin).
    expect((await suite.admin.http.get('/api/admin/users/1', suite.admin.token)).body.data.status).toBe('active');
  });
});

describe('GET /api/admin/users', () => {
  it('pages with the envelope and meta, and sends Content-Range', async () => {
    await registerUser();
    const res = await suite.admin.http.get('/api/admin/users?page=1&per_page=2', suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.data).toHaveLength(2);
    const { total, current_page, last_page, per_page } = res.body.data.meta;
    expect(current_page).toBe(1);
    expect(per_page).toBe(2);
    expect(last_page).toBe(Math.ceil(total / 2));
    expect(res.headers['content-range']).toBe(`users 0-1/${total}`);
    for (const user of res.body.data.data) {
      expect(user).not.toHaveProperty('password');
      expect(Object.keys(user)).toEqual(
        expect.arrayContaining(['id', 'first_name', 'last_name', 'email', 'email_verified_at', 'is_admin', 'subscription_id', 'status', 'subscription']),
      );
    }
  });

  it('searches by email and name', async () => {
    const target = await registerUser({ first_name: 'Zebulon', last_name: 'Quartermain' });
    const byName = await suite.admin.http.get('/api/admin/users?search=zebulon', suite.admin.token);
    expect(byName.body.data.data.map((u: { id: number }) => u.id)).toContain(target.id);
    const byEmail = await suite.admin.http.get(`/api/admin/users?search=${encodeURIComponent(target.email.slice(0, 20))}`, suite.admin.token);
    expect(byEmail.body.data.data.map((u: { id: number }) => u.id)).toContain(target.id);
    const none = await suite.admin.http.get('/api/admin/users?search=no-such-person-anywhere', suite.admin.token);
    expect(none.body.data.data).toEqual([]);
    expect(none.body.data.meta.total).toBe(0);
  });

  it("speaks react-admin's simple-REST protocol (range, sort, filter)", async () => {
    await registerUser({ first_name: 'Aaron', last_name: 'Range' });
    const range = encodeURIComponent(JSON.stringify([0, 2]));
    const sort = encodeURIComponent(JSON.stringify(['email', 'ASC']));
    const res = await suite.admin.http.get(`/api/admin/users?range=${range}&sort=${sort}`, suite.admin.token);
    expect(res.status).toBe(200);
    const emails = res.body.data.data.map((u: { email: string }) => u.email);
    expect(emails).toHaveLength(3);
    expect([...emails].sort()).toEqual(emails);
    expect(res.headers['content-range']).toMatch(/^users 0-2\/\d+$/);

    const filter = encodeURIComponent(JSON.stringify({ q: 'Aaron' }));
    const filtered = await suite.admin.http.get(`/api/admin/users?filter=${filter}`, suite.admin.token);
    expect(filtered.body.data.data.every((u: { first_name: string }) => u.first_name === 'Aaron')).toBe(true);

    const page2 = await suite.admin.http.get(`/api/admin/users?range=${encodeURIComponent(JSON.stringify([3, 5]))}`, suite.admin.token);
    expect(page2.headers['content-range']).toMatch(/^users 3-\d+\/\d+$/);
  });

  it('ignores a sort on an unknown field rather than failing', async () => {
    const sort = encodeURIComponent(JSON.stringify(['password', 'ASC']));
    const res = await suite.admin.http.get(`/api/admin/users?sort=${sort}&page=abc`, suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data.meta.current_page).toBe(1);
  });
});

describe('GET /api/admin/users/:id', () => {
  it('shows a user, and 404s for unknown or malformed ids', async () => {
    const user = await registerUser();
    const res = await suite.admin.http.get(`/api/admin/users/${user.id}`, suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: user.id, email: user.email.toLowerCase() });
    for (const id of ['999999999', 'abc', '1;drop']) {
      const missing = await suite.admin.http.get(`/api/admin/users/${id}`, suite.admin.token);
      expect(missing.status).toBe(404);
      expect(missing.body.success).toBe(false);
    }
  });
});

describe('POST /api/admin/users', () => {
  it("creates a verified user: 'User created successfully'", async () => {
    const body = newUserBody();
    const res = await suite.admin.http.post('/api/admin/users', body, suite.admin.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'User created successfully' });
    expect(res.body.data).toMatchObject({ email: body.email.toLowerCase(), is_admin: false, status: 'active' });
    expect(res.body.data.email_verified_at).not.toBeNull();
    await login(body.email, PASSWORD);
  });

  it('creates an admin when is_admin is on', async () => {
    const res = await suite.admin.http.post('/api/admin/users', newUserBody({ is_admin: true }), suite.admin.token);
    expect(res.status).toBe(201);
    expect(res.body.data.is_admin).toBe(true);
    const row = await suite.db('up_users').where({ id: res.body.data.id }).first();
    expect(Boolean(row.is_admin)).toBe(true);
  });

  it('validates every field and refuses a taken email', async () => {
    const res = await suite.admin.http.post('/api/admin/users', { is_admin: 'yes' }, suite.admin.token);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'first_name', 'is_admin', 'last_name', 'password']);
    const existing = await registerUser();
    const taken = await suite.admin.http.post('/api/admin/users', newUserBody({ email: existing.email }), suite.admin.token);
    expect(taken.status).toBe(422);
    expect(taken.body.errors.email).toEqual(['The email has already been taken.']);
  });
});

describe('PUT /api/admin/users/:id', () => {
  it("edits first name, last name and email: 'User was updated successfully'", async () => {
    const user = await registerUser();
    const email = uniqueEmail('renamed');
    const res = await suite.admin.http.put(`/api/admin/users/${user.id}`, { first_name: 'New', last_name: 'Name', email }, suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'User was updated successfully' });
    expect(res.body.data).toMatchObject({ first_name: 'New', last_name: 'Name', email: email.toLowerCase() });
    await login(email, PASSWORD);
  });

  it('never changes the admin role', async () => {
    const user = await registerUser();
    const res = await suite.admin.http.put(
      `/api/admin/users/${user.id}`,
      { first_name: 'X', last_name: 'Y', email: user.email, is_admin: true },
      suite.admin.token,
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ is_admin: ['Admin role is assigned during initial user creation and cannot be modified afterward.'] });
    const row = await suite.db('up_users').where({ id: user.id }).first();
    expect(Boolean(row.is_admin)).toBe(false);
    // Sending the unchanged value is fine.
    const same = await suite.admin.http.put(
      `/api/admin/users/${user.id}`,
      { first_name: 'X', last_name: 'Y', email: user.email, is_admin: false },
      suite.admin.token,
    );
    expect(same.status).toBe(200);
  });

  it("refuses another user's email and missing fields", async () => {
    const a = await registerUser();
    const b = await registerUser();
    const taken = await suite.admin.http.put(`/api/admin/users/${a.id}`, { first_name: 'A', last_name: 'A', email: b.email }, suite.admin.token);
    expect(taken.status).toBe(422);
    expect(taken.body.errors.email).toEqual(['The email has already been taken.']);
    const empty = await suite.admin.http.put(`/api/admin/users/${a.id}`, {}, suite.admin.token);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['email', 'first_name', 'last_name']);
  });

  it('suspends with a required reason; the user is locked out at once', async () => {
    const user = await registerUser();
    const noReason = await suite.admin.http.put(
      `/api/admin/users/${user.id}`,
      { status: 'suspended', status_note: '', current_status_ends_at: '' },
      suite.admin.token,
    );
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors).toEqual({ status_note: ['The status note field is required.'] });

    const res = await suite.admin.http.put(
      `/api/admin/users/${user.id}`,
      { status: 'suspended', status_note: 'Chargeback fraud', current_status_ends_at: '' },
      suite.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'User suspended successfully' });
    expect(res.body.data).toMatchObject({ status: 'suspended', status_note: 'Chargeback fraud' });

    expect((await user.http.get('/api/auth/user', user.token)).status).toBe(401);
    expect((await client().post('/api/auth/refresh-token').set('Cookie', user.cookie!)).status).toBe(401);
    const relogin = await client().post('/api/auth/login', { email: user.email, password: PASSWORD });
    expect(relogin.status).toBe(403);
    expect(relogin.body.message).toBe('Your account has been suspended. Please contact support.');

    const back = await suite.admin.http.put(`/api/admin/users/${user.id}`, { status: 'active' }, suite.admin.token);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ success: true, message: 'User reactivated successfully' });
    expect(back.body.data).toMatchObject({ status: 'active', status_note: null });
    await login(user.email, PASSWORD);
  });

  it('stores a suspension whole or not at all: when revoking the sessions fails, the user stays active and signed in', async () => {
    const user = await registerUser();
    // The database itself refuses to revoke this user's sessions (a fault in the middle of the use-case).
    if (isPostgres()) {
      await suite.db.raw(
        `CREATE OR REPLACE FUNCTION refuse_revoke_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
      );
      await suite.db.raw(
        `CREATE TRIGGER refuse_revoke BEFORE UPDATE ON branchify_refresh_tokens FOR EACH ROW WHEN (NEW.user_id = ${Number(user.id)}) EXECUTE FUNCTION refuse_revoke_for_test()`,
      );
    } else {
      await suite.db.raw(
        `CREATE TRIGGER refuse_revoke BEFORE UPDATE ON branchify_refresh_tokens WHEN NEW.user_id = ${Number(user.id)} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      );
    }
    try {
      const res = await suite.admin.http.put(`/api/admin/users/${user.id}`, { status: 'suspended', status_note: 'Chargeback fraud' }, suite.admin.token);
      expect(res.status).toBe(500);
      expect(res.body.success).toBe(false);
      expect(JSON.stringify(res.body)).not.toMatch(/refused by the test|trigger/);
    } finally {
      await suite.db.raw(isPostgres() ? 'DROP TRIGGER refuse_revoke ON branchify_refresh_tokens' : 'DROP TRIGGER refuse_revoke');
    }
    const row = await suite.db('up_users').where({ id: user.id }).first();
    expect(row).toMatchObject({ status: 'active', status_note: null });
    expect((await user.http.get('/api/auth/user', user.token)).status).toBe(200);
    expect((await client().post('/api/auth/refresh-token').set('Cookie', user.cookie!)).status).toBe(200);

    // With the fault gone the same suspension goes through, whole.
    const again = await suite.admin.http.put(`/api/admin/users/${user.id}`, { status: 'suspended', status_note: 'Chargeback fraud' }, suite.admin.token);
    expect(again.status).toBe(200);
    expect((await user.http.get('/api/auth/user', user.token)).status).toBe(401);
    expect(await suite.db('branchify_refresh_tokens').where({ user_id: user.id }).whereNull('revoked_at')).toEqual([]);
  });

  it("refuses to suspend an admin: 'Admin users cannot be suspended.'", async () => {
    const other = await suite.admin.http.post('/api/admin/users', newUserBody({ is_admin: true }), suite.admin.token);
    const res = await suite.admin.http.put(`/api/admin/users/${other.body.data.id}`, { status: 'suspended', status_note: 'no' }, suite.admin.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, message: 'Admin users cannot be suspended.' });
  });

  it('refuses an unknown status and 404s an unknown user', async () => {
    const user = await registerUser();
    const bad = await suite.admin.http.put(`/api/admin/users/${user.id}`, { status: 'banned' }, suite.admin.token);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.status).toEqual(['The selected status is invalid.']);
    expect((await suite.admin.http.put('/api/admin/users/999999999', { status: 'active' }, suite.admin.token)).status).toBe(404);
  });
});

describe('POST /api/admin/users/:id/verify-email', () => {
  it("marks an unverified account verified: 'Account successfully verified', the user reaches verified routes", async () => {
    const user = await registerUser();
    expect((await user.http.get('/api/users/subscriptions', user.token)).status).toBe(403);
    const res = await suite.admin.http.post(`/api/admin/users/${user.id}/verify-email`, {}, suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Account successfully verified', data: { id: user.id } });
    expect(res.body.data.email_verified_at).not.toBeNull();
    const stored = await suite.db('up_users').where({ id: user.id }).first();
    expect(stored.email_verified_at).not.toBeNull();
    expect(Boolean(stored.confirmed)).toBe(true);
    expect((await user.http.get('/api/users/subscriptions', user.token)).status).toBe(200);

    // Once is enough: a second time is refused and changes nothing.
    const again = await suite.admin.http.post(`/api/admin/users/${user.id}/verify-email`, {}, suite.admin.token);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, message: "This user's email address is already verified." });
    expect((await suite.admin.http.post('/api/admin/users/999999999/verify-email', {}, suite.admin.token)).status).toBe(404);
  });
});

describe('DELETE /api/admin/users/:id', () => {
  it("deletes a user and their sessions: 'User deleted successfully'", async () => {
    const user = await registerUser();
    const res = await suite.admin.http.delete(`/api/admin/users/${user.id}`, suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'User deleted successfully' });
    expect(await suite.db('up_users').where({ id: user.id }).first()).toBeUndefined();
    expect(await suite.db('branchify_refresh_tokens').where({ user_id: user.id })).toEqual([]);
    expect((await user.http.get('/api/auth/user', user.token)).status).toBe(401);
    expect((await suite.admin.http.delete(`/api/admin/users/${user.id}`, suite.admin.token)).status).toBe(404);
  });

  it("refuses to delete yourself: 'You cannot delete your own admin account.'", async () => {
    const me = await suite.admin.http.get('/api/auth/user', suite.admin.token);
    const res = await suite.admin.http.delete(`/api/admin/users/${me.body.data.id}`, suite.admin.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, message: 'You cannot delete your own admin account.' });
    expect((await suite.admin.http.get('/api/auth/user', suite.admin.token)).status).toBe(200);
  });
});
