import { client, newIp } from './support/http';
import { PASSWORD, registerUser, uniqueEmail } from './support/users';

// The suite runs with the defaults: 20 attempts per IP, and 5 failed sign-ins per account and
// address, per 60 s window.
const IP_MAX = 20;
const ACCOUNT_MAX = 5;

describe('rate limits on the auth endpoints', () => {
  it('blocks an address that keeps failing on an account, whatever password it then sends, with Retry-After', async () => {
    const user = await registerUser();
    const attacker = client();
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_MAX + 1; i += 1) {
      const res = await attacker.post('/api/auth/login', { email: user.email, password: 'wrong-password!' });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toEqual({ success: false, message: 'Too many attempts. Please wait a minute and try again.' });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, ACCOUNT_MAX).every((s) => s === 422)).toBe(true);
    expect(statuses[ACCOUNT_MAX]).toBe(429);
    // The right password does not get through from the blocked address either.
    const right = await attacker.post('/api/auth/login', { email: user.email, password: PASSWORD });
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts each attempt before the password is checked, so parallel wrong passwords get at most the budget of checks', async () => {
    const user = await registerUser();
    const attacker = client();
    // Spellings of one account are one account.
    const spellings = [user.email, user.email.toUpperCase(), `  ${user.email} `];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => attacker.post('/api/auth/login', { email: spellings[i % spellings.length], password: `wrong-password-${i}` })),
    );
    const checked = answers.filter((res) => res.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(ACCOUNT_MAX);
    expect(checked.every((res) => res.status === 422)).toBe(true);
    // Still blocked for the right password from that address; the owner's own address is not.
    expect((await attacker.post('/api/auth/login', { email: user.email, password: PASSWORD })).status).toBe(429);
    expect((await client().post('/api/auth/login', { email: user.email, password: PASSWORD })).status).toBe(200);
  });

  it("leaves the owner's own address alone while someone else fails on their account", async () => {
    const user = await registerUser();
    for (let i = 0; i < ACCOUNT_MAX + 2; i += 1) await client('198.51.100.7').post('/api/auth/login', { email: user.email, password: 'wrong-password!' });
    const owner = await client().post('/api/auth/login', { email: user.email, password: PASSWORD });
    expect(owner.status).toBe(200);
    expect(owner.body.message).toBe('Welcome back!');
  });

  it('counts failures only: signing in again and again from one address is fine', async () => {
    const user = await registerUser();
    const http = client();
    for (let i = 0; i < ACCOUNT_MAX + 2; i += 1) {
      expect((await http.post('/api/auth/login', { email: user.email, password: PASSWORD })).status).toBe(200);
    }
  });

  it('keys the account on the normalised address, so case games do not help', async () => {
    const user = await registerUser();
    const http = client();
    for (let i = 0; i < ACCOUNT_MAX; i += 1) await http.post('/api/auth/login', { email: user.email, password: 'wrong-password!' });
    const res = await http.post('/api/auth/login', { email: `  ${user.email.toUpperCase()} `, password: 'wrong-password!' });
    expect(res.status).toBe(429);
  });

  it('limits one address across many accounts', async () => {
    const http = client();
    const statuses: number[] = [];
    for (let i = 0; i < IP_MAX + 1; i += 1) {
      statuses.push((await http.post('/api/auth/password/forgot', { email: uniqueEmail('flood') })).status);
    }
    expect(statuses.slice(0, IP_MAX).every((s) => s === 200)).toBe(true);
    expect(statuses[IP_MAX]).toBe(429);
    // Another client is unaffected.
    expect((await client().post('/api/auth/password/forgot', { email: uniqueEmail() })).status).toBe(200);
  });

  it('cannot be dodged by prepending addresses to X-Forwarded-For', async () => {
    const realIp = newIp();
    const statuses: number[] = [];
    for (let i = 0; i < IP_MAX + 1; i += 1) {
      const spoofed = client(`203.0.113.${i}, ${realIp}`);
      // A different recipient each time, so only the address can be what limits it.
      statuses.push((await spoofed.post('/api/auth/register', { email: `invalid-${i}` })).status);
    }
    expect(statuses[IP_MAX - 1]).toBe(422);
    expect(statuses[IP_MAX]).toBe(429);
  });

  it('limits registration and password reset attempts too', async () => {
    const http = client();
    let last = 0;
    for (let i = 0; i < IP_MAX + 1; i += 1) last = (await http.post('/api/auth/register', {})).status;
    expect(last).toBe(429);

    // Reset attempts are counted per account and address: the same address is stopped, another is not.
    const target = uniqueEmail('reset-target');
    const guesser = client();
    const guess = (http: ReturnType<typeof client>) =>
      http.post('/api/auth/password/reset', { email: target, token: 'guess', password: 'x-password-1', password_confirmation: 'x-password-1' });
    let resetStatus = 0;
    for (let i = 0; i < ACCOUNT_MAX + 1; i += 1) resetStatus = (await guess(guesser)).status;
    expect(resetStatus).toBe(429);
    expect((await guess(client())).status).toBe(422);
  });
});
