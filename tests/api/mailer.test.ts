// @serial: changes the mailer and the SMTP sink for the whole install (tests/harness/groups.js)
import { client } from './support/http';
import { eventually } from './support/poll';
import { configureMailer, linkIn, removeMailer, sink, smtpSettings } from './support/mail';
import { registerUser, verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

afterAll(async () => {
  await sink.up();
  await removeMailer();
});

describe('admin mailer settings', () => {
  it('is admin only: 401 anonymous, 403 for a user', async () => {
    const user = await verifiedUser();
    const anonymous = client();
    const calls = [
      (token?: string) => (token ? user.http : anonymous).get('/api/admin/mailer', token),
      (token?: string) => (token ? user.http : anonymous).put('/api/admin/mailer', smtpSettings(), token),
      (token?: string) => (token ? user.http : anonymous).post('/api/admin/mailer/verify', {}, token),
    ];
    for (const call of calls) {
      const none = await call();
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ success: false, message: 'Unauthenticated.' });
      expect((await call(user.token)).status).toBe(403);
    }
  });

  it('answers 422 with field keys for bad input', async () => {
    const res = await suite.admin.http.put(
      '/api/admin/mailer',
      { host: '', port: 70000, encryption: 'starttls', from_address: 'not-an-email' },
      suite.admin.token,
    );
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(Object.keys(res.body.errors).sort()).toEqual(['encryption', 'from_address', 'host', 'port']);
  });

  it('saves the settings without ever echoing the password, which is stored encrypted', async () => {
    const res = await suite.admin.http.put('/api/admin/mailer', smtpSettings(), suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Transactional email updated successfully');
    expect(res.body.data).toMatchObject({
      host: smtpSettings().host,
      port: smtpSettings().port,
      username: smtpSettings().username,
      has_password: true,
      configured: true,
    });
    expect(JSON.stringify(res.body)).not.toContain(String(smtpSettings().password));

    const shown = await suite.admin.http.get('/api/admin/mailer', suite.admin.token);
    expect(JSON.stringify(shown.body)).not.toContain(String(smtpSettings().password));
    const row = await suite.db('branchify_mailer_settings').first();
    expect(row.password_encrypted).toBeTruthy();
    expect(row.password_encrypted).not.toContain(String(smtpSettings().password));

    // Saving again without a password keeps the stored one.
    const again = await suite.admin.http.put('/api/admin/mailer', { ...smtpSettings(), password: '' }, suite.admin.token);
    expect(again.status).toBe(200);
    expect(again.body.data.has_password).toBe(true);
  });

  it('the public customization says whether mail is configured (the banner)', async () => {
    const res = await client().get('/api/customizations');
    expect(res.body.data.mailer_configured).toBe(true);
  });

  it('verify succeeds against the SMTP server with the right password', async () => {
    await configureMailer(suite.admin);
    const res = await suite.admin.http.post('/api/admin/mailer/verify', {}, suite.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Transactional email settings verified successfully');
    expect(res.body.data.verified_at).not.toBeNull();
  });

  it("verify reports the server's answer to a wrong password, keyed on password", async () => {
    await configureMailer(suite.admin, { password: 'wrong-password' });
    const res = await suite.admin.http.post('/api/admin/mailer/verify', {}, suite.admin.token);
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toMatch(/535|Invalid login|credentials/i);
    expect(res.body.errors.password[0]).toBe(res.body.message);
    await configureMailer(suite.admin);
  });

  it('verify reports an unreachable server on host', async () => {
    await sink.down();
    try {
      const res = await suite.admin.http.post('/api/admin/mailer/verify', {}, suite.admin.token);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['host']);
    } finally {
      await sink.up();
    }
  });
});

describe('sending through the outbox', () => {
  beforeAll(() => configureMailer(suite.admin));

  it('forgot password -> mail -> reset, end to end through the SMTP server', async () => {
    const user = await registerUser({ first_name: 'Rosa', last_name: 'Reset' });
    const forgot = await client().post('/api/auth/password/forgot', { email: user.email });
    expect(forgot.status).toBe(200);
    const [mail] = await sink.waitFor(user.email, (m) => /reset/i.test(m.subject));
    expect(mail!.from).toContain('no-reply@branchify.test');
    expect(mail!.html).toContain('Rosa');
    const link = new URL(linkIn(mail!, '/password-reset'));

    const reset = await client().post('/api/auth/password/reset', {
      token: link.searchParams.get('token'),
      email: link.searchParams.get('email'),
      password: 'a-brand-new-secret',
      password_confirmation: 'a-brand-new-secret',
    });
    expect(reset.status).toBe(200);
    const login = await client().post('/api/auth/login', { email: user.email, password: 'a-brand-new-secret' });
    expect(login.status).toBe(200);
  });

  it('while the SMTP server is down mail waits; after it returns every mail arrives exactly once', async () => {
    const users = await Promise.all([1, 2, 3].map(() => registerUser()));
    await Promise.all(users.map((u) => sink.waitFor(u.email))); // verification mails
    await sink.down();
    try {
      for (const u of users) {
        const res = await client().post('/api/auth/password/forgot', { email: u.email });
        expect(res.status).toBe(200);
      }
      const waiting = await suite
        .db('branchify_mail_outbox')
        .whereIn(
          'to_address',
          users.map((u) => u.email),
        )
        .andWhere('template', 'password_reset');
      expect(waiting).toHaveLength(3);
      for (const row of waiting) expect(['queued', 'sending']).toContain(row.status);
      // Let the worker try (and fail) at least once.
      await eventually(
        () =>
          suite
            .db('branchify_mail_outbox')
            .whereIn(
              'to_address',
              users.map((u) => u.email),
            )
            .andWhere('template', 'password_reset')
            .whereNotNull('last_error'),
        (tried) => tried.length > 0,
      );
    } finally {
      await sink.up();
    }
    for (const u of users) await sink.waitFor(u.email, (m) => /reset/i.test(m.subject));
    // Counted once the worker is done with every row (a row is marked sent after its mail is handed over).
    const rows = await eventually(
      () =>
        suite
          .db('branchify_mail_outbox')
          .whereIn(
            'to_address',
            users.map((u) => u.email),
          )
          .andWhere('template', 'password_reset'),
      (found) => found.every((r) => r.status === 'sent'),
    );
    for (const u of users) {
      const resets = (await sink.to(u.email)).filter((m) => /reset/i.test(m.subject));
      expect(resets).toHaveLength(1);
    }
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('without a mailer the links go to the log again', async () => {
    await removeMailer();
    const res = await client().get('/api/customizations');
    expect(res.body.data.mailer_configured).toBe(false);
    const user = await verifiedUser(); // follows the logged link
    expect(await sink.to(user.email)).toEqual([]);
  });
});
