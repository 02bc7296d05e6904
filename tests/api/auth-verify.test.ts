import { client } from './support/http';
import { findLoggedLink, logLength } from './support/log';
import { registerUser, verifiedUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

const linkParams = (link: string) => Object.fromEntries(new URL(link).searchParams) as Record<string, string>;

describe('email verification', () => {
  it('writes a signed link to the log on registration (no mailer configured yet)', async () => {
    const user = await registerUser();
    const link = await findLoggedLink('verification', user.email.toLowerCase());
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.pathname).toBe('/email-verify');
    expect(Object.keys(linkParams(link!)).sort()).toEqual(['expires', 'hash', 'id', 'signature']);
    expect(url.searchParams.get('id')).toBe(String(user.id));
  });

  it("verifies with the link's parameters: 'Account successfully verified'", async () => {
    const user = await registerUser();
    const params = linkParams((await findLoggedLink('verification', user.email.toLowerCase()))!);
    const res = await client().post('/api/auth/verify-email', params);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Account successfully verified' });
    expect(res.body.data.email_verified_at).not.toBeNull();
    const row = await suite.db('up_users').where({ id: user.id }).first();
    expect(row.email_verified_at).not.toBeNull();
    // Following the link twice is harmless.
    expect((await client().post('/api/auth/verify-email', params)).status).toBe(200);
  });

  it('refuses a tampered, expired or foreign link with 403', async () => {
    const user = await registerUser();
    const other = await registerUser();
    const params = linkParams((await findLoggedLink('verification', user.email.toLowerCase()))!);
    const cases = [
      { ...params, signature: params.signature!.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')) },
      { ...params, expires: String(Number(params.expires) - 7200) },
      { ...params, id: String(other.id) },
    ];
    for (const body of cases) {
      const res = await client().post('/api/auth/verify-email', body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, message: 'This verification link is invalid or has expired. Please request a new one.' });
    }
    const row = await suite.db('up_users').where({ id: user.id }).first();
    expect(row.email_verified_at).toBeNull();
  });

  it('answers 422 when parameters are missing', async () => {
    const res = await client().post('/api/auth/verify-email', { id: '1' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['expires', 'hash', 'signature']);
  });

  it("resends the link: 'Verification link sent'", async () => {
    const user = await registerUser();
    const before = logLength();
    const res = await user.http.post('/api/auth/send-verification-email', {}, user.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Verification link sent' });
    expect(await findLoggedLink('verification', user.email.toLowerCase(), before)).toBeDefined();
  });

  it('needs a session to resend, and says so when already verified', async () => {
    expect((await client().post('/api/auth/send-verification-email')).status).toBe(401);
    const user = await verifiedUser();
    const res = await user.http.post('/api/auth/send-verification-email', {}, user.token);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Your email address is already verified.');
  });
});
