// @serial: changes the mailer for the whole install (tests/harness/groups.js)
import { openDb } from './support/db';
import { client, refreshCookie } from './support/http';
import { findLoggedLink, logLength } from './support/log';
import { configureMailer, removeMailer, sink } from './support/mail';
import { adminSession, login, PASSWORD, registerUser, uniqueEmail, verifiedUser } from './support/users';

const db = openDb();
afterAll(() => db.destroy());

const setCookies = (res: { headers: Record<string, unknown> }): string[] => (res.headers['set-cookie'] as string[] | undefined) ?? [];

describe('the refresh cookie', () => {
  it('a second tab (or a reload that lost the answer) inside the grace window gets its own pair; the first stays good', async () => {
    const user = await registerUser();
    const session = await login(user.email, PASSWORD);
    const first = await client().post('/api/auth/refresh-token').set('Cookie', session.cookie!);
    expect(first.status).toBe(200);
    const rotated = refreshCookie(first)!;

    // The browser never stored the first answer's cookie: it presents the old one again.
    const again = await client().post('/api/auth/refresh-token').set('Cookie', session.cookie!);
    expect(again.status).toBe(200);
    const second = refreshCookie(again)!;
    expect(second).not.toBe(rotated);
    expect(again.body.data.user.email).toBe(user.email);

    for (const cookie of [rotated, second]) {
      expect((await client().post('/api/auth/refresh-token').set('Cookie', cookie)).status).toBe(200);
    }
  });

  it('a refused refresh clears the cookie it could not use', async () => {
    const refused = await client().post('/api/auth/refresh-token').set('Cookie', 'branchify_refresh=forged');
    expect(refused.status).toBe(401);
    expect(setCookies(refused).find((c) => c.startsWith('branchify_refresh='))).toMatch(/expires=Thu, 01 Jan 1970/i);
  });

  it('is Secure exactly when PUBLIC_URL is https, whatever a proxy header claims', async () => {
    const user = await registerUser();
    const res = await client().post('/api/auth/login', { email: user.email, password: PASSWORD }).set('X-Forwarded-Proto', 'https');
    expect(res.status).toBe(200);
    const cookie = setCookies(res).find((c) => c.startsWith('branchify_refresh='))!;
    // The suites' PUBLIC_URL is http://localhost:1337.
    expect(cookie).not.toMatch(/;\s*secure/i);
    expect(cookie).toMatch(/httponly/i);
  });
});

describe('registration', () => {
  it('caps the length of names that end up in branded mail', async () => {
    const long = 'A'.repeat(61);
    const res = await client().post('/api/auth/register', {
      first_name: long,
      last_name: long,
      email: uniqueEmail('long-name'),
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.first_name).toEqual(['The first name field must not be greater than 60 characters.']);
    expect(res.body.errors.last_name).toEqual(['The last name field must not be greater than 60 characters.']);

    const admin = await adminSession();
    const created = await admin.http.post(
      '/api/admin/users',
      { first_name: long, last_name: 'Ok', email: uniqueEmail('long-admin'), password: PASSWORD, password_confirmation: PASSWORD },
      admin.token,
    );
    expect(created.status).toBe(422);
    expect(Object.keys(created.body.errors)).toEqual(['first_name']);
  });

  it('throttles registrations aimed at one recipient, whichever address they come from', async () => {
    const target = uniqueEmail('recipient');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push(
        (await client().post('/api/auth/register', { first_name: 'A', last_name: 'B', email: target, password: PASSWORD, password_confirmation: PASSWORD }))
          .status,
      );
    }
    expect(statuses[0]).toBe(201);
    expect(statuses[5]).toBe(429);
  });
});

describe('password reset links', () => {
  it('stop working once the password is changed', async () => {
    const user = await verifiedUser();
    const before = logLength();
    await client().post('/api/auth/password/forgot', { email: user.email });
    const link = await findLoggedLink('reset', user.email, before);
    expect(link).toBeDefined();
    const { token } = Object.fromEntries(new URL(link!).searchParams);

    const changed = await user.http.post(
      '/api/auth/password/change',
      { current_password: PASSWORD, password: 'a-new-password-9', password_confirmation: 'a-new-password-9' },
      user.token,
    );
    expect(changed.status).toBe(200);

    const reset = await client().post('/api/auth/password/reset', {
      email: user.email,
      token,
      password: 'attacker-pass-1',
      password_confirmation: 'attacker-pass-1',
    });
    expect(reset.status).toBe(422);
    expect((await client().post('/api/auth/login', { email: user.email, password: 'a-new-password-9' })).status).toBe(200);
  });
});

describe('the mail outbox', () => {
  beforeAll(async () => configureMailer(await adminSession()));
  afterAll(() => removeMailer());

  it('keeps no readable reset link once the mail is sent', async () => {
    const user = await registerUser();
    await client().post('/api/auth/password/forgot', { email: user.email });
    const [mail] = await sink.waitFor(user.email, (m) => /reset/i.test(m.subject));
    expect(mail!.html).toContain('/password-reset?token=');

    let row: { status: string; html: string | null; text_body: string | null } | undefined;
    for (let i = 0; i < 50; i += 1) {
      row = await db('branchify_mail_outbox').where({ to_address: user.email.toLowerCase(), template: 'password_reset' }).first();
      if (row?.status === 'sent') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(row?.status).toBe('sent');
    expect(row?.html ?? '').not.toContain('token=');
    expect(row?.text_body ?? '').not.toContain('token=');
  });
});
