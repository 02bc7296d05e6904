import path from 'node:path';
import { fieldMessages } from '@branchify/shared';
import { openDb } from './support/db';
import { cmsOperatorJwt } from './support/cms';
import { client } from './support/http';
import { findLoggedLink, logLength } from './support/log';
import { login, PASSWORD, registerUser, type Session } from './support/users';
import { runScript } from './support/run-script';

/**
 * A password changed anywhere — the /cms Content Manager, Strapi's document service, its query
 * layer — ends the user's sessions as the API's own change does: access tokens, refresh tokens and
 * outstanding reset links all stop working.
 */
const db = openDb();
afterAll(() => db.destroy());

const NEW_PASSWORD = 'set-by-an-operator-7';
const UID = 'plugin::users-permissions.user';
const writer = path.join(__dirname, 'support', 'strapi-write.js');

/** A user signed in twice (two sessions) with a reset link in their inbox. */
const userWithSessions = async () => {
  const user = await registerUser();
  const second = await login(user.email, PASSWORD);
  const before = logLength();
  await client().post('/api/auth/password/forgot', { email: user.email });
  const link = await findLoggedLink('reset', user.email.toLowerCase(), before);
  const token = new URL(link!).searchParams.get('token')!;
  const row = await db('up_users').where({ id: user.id }).first('document_id', 'token_version');
  return { user, sessions: [user, second], resetToken: token, documentId: row.document_id as string, tokenVersion: Number(row.token_version) };
};

const expectSessionsEnded = async (state: Awaited<ReturnType<typeof userWithSessions>>) => {
  for (const session of state.sessions as Session[]) {
    expect((await client().get('/api/auth/user', session.token)).status).toBe(401);
    expect(
      (
        await client()
          .post('/api/auth/refresh-token')
          .set('Cookie', session.cookie ?? '')
      ).status,
    ).toBe(401);
  }
  const reset = await client().post('/api/auth/password/reset', {
    token: state.resetToken,
    email: state.user.email,
    password: 'undo-the-change-1',
    password_confirmation: 'undo-the-change-1',
  });
  expect(reset.status).toBe(422);
  expect(reset.body.errors).toEqual({ email: ['This password reset token is invalid or has expired.'] });
  const row = await db('up_users').where({ id: state.user.id }).first('token_version');
  expect(Number(row.token_version)).toBeGreaterThan(state.tokenVersion);
  expect(await db('branchify_refresh_tokens').where({ user_id: state.user.id }).whereNull('revoked_at')).toHaveLength(0);
  expect(await db('branchify_password_resets').where({ user_id: state.user.id })).toHaveLength(0);
  // The new password is the one that signs in.
  await login(state.user.email, NEW_PASSWORD);
};

describe('a password changed outside the API ends every session', () => {
  let cmsToken: string;
  beforeAll(async () => {
    cmsToken = await cmsOperatorJwt('Paula');
  });

  it('in the /cms Content Manager', async () => {
    const state = await userWithSessions();
    const edit = await client().put(`/content-manager/collection-types/${UID}/${state.documentId}`, { password: NEW_PASSWORD }, cmsToken);
    expect(edit.status).toBe(200);
    await expectSessionsEnded(state);
  });

  it('an edit in the Content Manager that leaves the password alone ends nothing', async () => {
    const state = await userWithSessions();
    const edit = await client().put(`/content-manager/collection-types/${UID}/${state.documentId}`, { first_name: 'Renamed' }, cmsToken);
    expect(edit.status).toBe(200);
    for (const session of state.sessions) expect((await client().get('/api/auth/user', session.token)).status).toBe(200);
    const row = await db('up_users').where({ id: state.user.id }).first('token_version');
    expect(Number(row.token_version)).toBe(state.tokenVersion);
  });

  it.each(['documents', 'query', 'query-many'])("through Strapi's %s layer", async (layer) => {
    const state = await userWithSessions();
    const run = await runScript(writer, [layer, String(state.user.id), NEW_PASSWORD]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    await expectSessionsEnded(state);
  });

  it('the Content Manager refuses a password over 72 bytes, like the API', async () => {
    const state = await userWithSessions();
    const edit = await client().put(`/content-manager/collection-types/${UID}/${state.documentId}`, { password: 'é'.repeat(37) }, cmsToken);
    expect(edit.status).toBe(400);
    expect(JSON.stringify(edit.body)).toContain(fieldMessages.maxBytes('password', 72));
    for (const session of state.sessions) expect((await client().get('/api/auth/user', session.token)).status).toBe(200);
    await login(state.user.email, PASSWORD);
  });
});
