import fs from 'node:fs';
import path from 'node:path';
import { client } from './support/http';
import { PASSWORD, registerUser, uniqueEmail } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

describe('POST /api/auth/register', () => {
  it('made the first account of the fresh install a verified admin', () => {
    const first = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '.tmp', 'first-registration.json'), 'utf8'));
    expect(first.status).toBe(201);
    expect(first.body.success).toBe(true);
    expect(first.body.message).toBe('Account created successfully');
    expect(first.body.data.access_token).toEqual(expect.any(String));
    expect(first.body.data.user).toMatchObject({ is_admin: true, status: 'active', email: 'first-admin@example.test' });
    expect(first.body.data.user.email_verified_at).not.toBeNull();
  });

  it('creates a regular, unverified account with a working token and a refresh cookie', async () => {
    const http = client();
    const email = uniqueEmail('Reg');
    const res = await http.post('/api/auth/register', {
      first_name: 'Grace',
      last_name: 'Hopper',
      email,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Account created successfully' });
    expect(res.body.data.user).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: email.toLowerCase(),
      is_admin: false,
      email_verified_at: null,
      status: 'active',
      subscription: null,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|\$2[aby]\$/);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('branchify_refresh='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/auth/i);

    const me = await http.get('/api/auth/user', res.body.data.access_token);
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(email.toLowerCase());

    const row = await suite.db('up_users').where({ email: email.toLowerCase() }).first();
    expect(row.password).toMatch(/^\$2[aby]\$10\$/);
    expect(row.password).not.toContain(PASSWORD);
    expect(Boolean(row.is_admin)).toBe(false);
  });

  it('answers 422 keyed by field for missing and malformed input', async () => {
    const res = await client().post('/api/auth/register', { email: 'not-an-email', password: 'short', password_confirmation: 'short' });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toEqual({
      first_name: ['The first name field is required.'],
      last_name: ['The last name field is required.'],
      email: ['The email field must be a valid email address.'],
      password: ['The password field must be at least 8 characters.'],
    });
    expect(res.body.message).toBe('The first name field is required.');
  });

  it('refuses a password confirmation that does not match', async () => {
    const res = await client().post('/api/auth/register', {
      first_name: 'A',
      last_name: 'B',
      email: uniqueEmail(),
      password: PASSWORD,
      password_confirmation: 'something-else',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.password).toEqual(['The password field confirmation does not match.']);
  });

  it('refuses an email that is already taken, whatever its case', async () => {
    const existing = await registerUser();
    const res = await client().post('/api/auth/register', {
      first_name: 'A',
      last_name: 'B',
      email: existing.email.toUpperCase(),
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toEqual(['The email has already been taken.']);
  });

  it('ignores an is_admin flag a registrant sends', async () => {
    const session = await registerUser({ is_admin: true });
    const me = await session.http.get('/api/auth/user', session.token);
    expect(me.body.data.is_admin).toBe(false);
  });

  it('rejects wrongly typed fields with 422 rather than a server error', async () => {
    const res = await client().post('/api/auth/register', { first_name: 42, last_name: ['x'], email: {}, password: null });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'first_name', 'last_name', 'password']);
  });

  it('makes one account of five registrations with the same email at once; the others are told it is taken', async () => {
    const email = uniqueEmail('race');
    const body = { first_name: 'Ada', last_name: 'Race', email, password: PASSWORD, password_confirmation: PASSWORD };
    // From five addresses, as five people (or one script) would send them.
    const answers = await Promise.all(Array.from({ length: 5 }, () => client().post('/api/auth/register', body)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const refused of answers.filter((r) => r.status !== 201)) {
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual({ email: ['The email has already been taken.'] });
    }
    expect(await suite.db('up_users').where({ email: email.toLowerCase() })).toHaveLength(1);
  });
});
