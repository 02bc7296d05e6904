// @serial: changes the mailer for the whole install (tests/harness/groups.js)
import { openDb } from './support/db';
import { client } from './support/http';
import { findLoggedLink, logLength } from './support/log';
import { configureMailer, removeMailer, sink } from './support/mail';
import { adminSession, login, registerUser } from './support/users';

/**
 * Password recovery is throttled per account *and* client address (like sign-in), so nobody can
 * use up the owner's budget from elsewhere; a new request never revokes a link already mailed; and
 * the reset mail anyone can trigger for one account is bounded by a few live links.
 */
const db = openDb();
afterAll(() => db.destroy());

// The suite's defaults: 5 attempts per account and address per window; at most 3 live reset links.
const ACCOUNT_MAX = 5;
const LIVE_LINKS_MAX = 3;
const NEW_PASSWORD = 'recovered-password-3';

const resetWith = (http: ReturnType<typeof client>, email: string, token: string) =>
  http.post('/api/auth/password/reset', { email, token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });

const loggedToken = async (email: string, before: number) => new URL((await findLoggedLink('reset', email.toLowerCase(), before))!).searchParams.get('token')!;

describe('someone else cannot lock an account out of password recovery', () => {
  it("bogus resets for the account from other addresses leave the owner's link working", async () => {
    const victim = await registerUser();
    const own = client();
    const before = logLength();
    expect((await own.post('/api/auth/password/forgot', { email: victim.email })).status).toBe(200);
    const token = await loggedToken(victim.email, before);

    for (const attacker of [client(), client(), client()]) {
      const statuses: number[] = [];
      for (let i = 0; i < ACCOUNT_MAX + 1; i += 1) statuses.push((await resetWith(attacker, victim.email, `guess-${i}`)).status);
      // Each address is still limited on the account.
      expect(statuses.slice(0, ACCOUNT_MAX).every((s) => s === 422)).toBe(true);
      expect(statuses[ACCOUNT_MAX]).toBe(429);
    }
    // The same address spelled differently is the same account.
    const spelled = client();
    for (let i = 0; i < ACCOUNT_MAX; i += 1) await resetWith(spelled, victim.email, `guess-${i}`);
    expect((await resetWith(spelled, `  ${victim.email.toUpperCase()} `, 'guess')).status).toBe(429);

    const reset = await resetWith(own, victim.email, token);
    expect(reset.status).toBe(200);
    await login(victim.email, NEW_PASSWORD);
  });

  it("requests from another address neither revoke a mailed link nor use up the owner's budget", async () => {
    const victim = await registerUser();
    const own = client();
    const before = logLength();
    await own.post('/api/auth/password/forgot', { email: victim.email });
    const first = await loggedToken(victim.email, before);

    const attacker = client();
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_MAX + 1; i += 1) statuses.push((await attacker.post('/api/auth/password/forgot', { email: victim.email })).status);
    expect(statuses[ACCOUNT_MAX]).toBe(429);

    // The owner can still ask (nothing new is mailed while three links are live: they are in the inbox).
    expect((await own.post('/api/auth/password/forgot', { email: victim.email })).status).toBe(200);
    // The first link still resets.
    expect((await resetWith(own, victim.email, first)).status).toBe(200);
    await login(victim.email, NEW_PASSWORD);
  });
});

describe('the reset mail anyone can trigger for one account is bounded', () => {
  beforeAll(async () => configureMailer(await adminSession()));
  afterAll(() => removeMailer());

  const queuedResets = async (email: string) => db('branchify_mail_outbox').where({ to_address: email.toLowerCase(), template: 'password_reset' });
  const tokenIn = (html: string) => /password-reset\?token=([A-Za-z0-9_-]+)/.exec(html)?.[1];

  it('parallel requests from many addresses mail at most a few live links, and the first one mailed still works', async () => {
    const victim = await registerUser();
    const answers = await Promise.all(Array.from({ length: 20 }, () => client().post('/api/auth/password/forgot', { email: victim.email })));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));

    const queued = await queuedResets(victim.email);
    expect(queued.length).toBeGreaterThanOrEqual(1);
    expect(queued.length).toBeLessThanOrEqual(LIVE_LINKS_MAX);
    const live = await db('branchify_password_resets').where({ user_id: victim.id }).whereNull('used_at');
    expect(live).toHaveLength(queued.length);

    // What reaches the inbox: exactly those mails, each with a link of its own.
    const mails = await sink.waitFor(victim.email, (m) => /reset/i.test(m.subject), queued.length);
    expect(mails).toHaveLength(queued.length);
    const tokens = mails.sort((a, b) => a.id - b.id).map((m) => tokenIn(m.html)!);
    expect(new Set(tokens).size).toBe(tokens.length);

    // Later requests mail nothing more while those links live.
    for (let i = 0; i < 3; i += 1) expect((await client().post('/api/auth/password/forgot', { email: victim.email })).status).toBe(200);
    expect(await queuedResets(victim.email)).toHaveLength(queued.length);

    // The oldest mailed link resets; the others end with it.
    const own = client();
    expect((await resetWith(own, victim.email, tokens[0]!)).status).toBe(200);
    for (const other of tokens.slice(1)) expect((await resetWith(own, victim.email, other)).status).toBe(422);
  });

  it('a link that expired makes room for a new one', async () => {
    const user = await registerUser();
    for (let i = 0; i < LIVE_LINKS_MAX + 1; i += 1) await client().post('/api/auth/password/forgot', { email: user.email });
    expect(await queuedResets(user.email)).toHaveLength(LIVE_LINKS_MAX);
    // An hour passes for the oldest link.
    const oldest = await db('branchify_password_resets').where({ user_id: user.id }).orderBy('id').first('id');
    await db('branchify_password_resets')
      .where({ id: oldest.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await client().post('/api/auth/password/forgot', { email: user.email });
    expect(await queuedResets(user.email)).toHaveLength(LIVE_LINKS_MAX + 1);
  });
});
