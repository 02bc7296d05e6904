import { MESSAGES } from '@branchify/shared';
import { freePlan, subscribedUser } from './support/content';
import { login, PASSWORD, registerUser, uniqueEmail } from './support/users';
import { useApiSuite } from './support/suite';

/**
 * The admin panel saves a user the way react-admin does: it PUTs back the whole record GET served,
 * with the edited fields changed. The API accepts that record; what an edit cannot change (the
 * admin role, the status, the id) must come back as served, and what other flows set (the
 * subscription, the timestamps, the verification date) is ignored.
 */
const suite = useApiSuite();

const served = async (id: number) => {
  const res = await suite.admin.http.get(`/api/admin/users/${id}`, suite.admin.token);
  expect(res.status).toBe(200);
  return res.body.data as Record<string, unknown> & { subscription: Record<string, unknown> | null };
};
const putBack = (id: number, record: Record<string, unknown>) => suite.admin.http.put(`/api/admin/users/${id}`, record, suite.admin.token);
const row = (id: number) => suite.db('up_users').where({ id }).first();

describe('PUT /api/admin/users/:id with the record GET served', () => {
  it('accepts the record back unchanged (200) and changes nothing', async () => {
    const user = await registerUser();
    const before = await row(user.id);
    const record = await served(user.id);

    const res = await putBack(user.id, record);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: MESSAGES.userUpdated });
    const { updated_at: _after, ...rest } = res.body.data;
    const { updated_at: _before, ...expected } = record;
    expect(rest).toEqual(expected);

    const after = await row(user.id);
    for (const column of ['first_name', 'last_name', 'email', 'is_admin', 'status', 'status_note', 'email_verified_at', 'token_version']) {
      expect(after[column]).toEqual(before[column]);
    }
    // The user's session was not touched.
    expect((await user.http.get('/api/auth/user', user.token)).status).toBe(200);
  });

  it('saves the edited fields of the whole record', async () => {
    const user = await registerUser();
    const record = await served(user.id);
    const email = uniqueEmail('whole-record');
    const res = await putBack(user.id, { ...record, first_name: 'Edited', last_name: 'Whole', email });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: user.id, first_name: 'Edited', last_name: 'Whole', email: email.toLowerCase(), status: 'active' });
    expect(await row(user.id)).toMatchObject({ first_name: 'Edited', last_name: 'Whole', email: email.toLowerCase() });
    await login(email, PASSWORD);
  });

  it('refuses to flip is_admin through the edit, either way, and the database keeps the role', async () => {
    const user = await registerUser();
    const record = await served(user.id);
    const promote = await putBack(user.id, { ...record, first_name: 'Sneaky', is_admin: true });
    expect(promote.status).toBe(422);
    expect(promote.body).toMatchObject({ success: false, message: MESSAGES.adminRoleReadOnly, errors: { is_admin: [MESSAGES.adminRoleReadOnly] } });
    const after = await row(user.id);
    expect(Boolean(after.is_admin)).toBe(false);
    expect(after.first_name).toBe(record.first_name);
    // The promotion did not reach the user's session either: admin routes still refuse them.
    expect((await user.http.get('/api/admin/users', user.token)).status).toBe(403);

    const other = await suite.admin.http.post(
      '/api/admin/users',
      { first_name: 'Second', last_name: 'Admin', email: uniqueEmail('admin2'), password: PASSWORD, password_confirmation: PASSWORD, is_admin: true },
      suite.admin.token,
    );
    const adminRecord = await served(other.body.data.id);
    const demote = await putBack(other.body.data.id, { ...adminRecord, is_admin: false });
    expect(demote.status).toBe(422);
    expect(demote.body.errors).toEqual({ is_admin: [MESSAGES.adminRoleReadOnly] });
    expect(Boolean((await row(other.body.data.id)).is_admin)).toBe(true);
  });

  it('refuses to change the status through the edit (suspend and reactivate are their own actions)', async () => {
    const user = await registerUser();
    const record = await served(user.id);
    const res = await putBack(user.id, { ...record, status: 'suspended', status_note: 'Through the edit' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ status: [MESSAGES.statusReadOnlyInEdit], status_note: [MESSAGES.statusReadOnlyInEdit] });
    expect(await row(user.id)).toMatchObject({ status: 'active', status_note: null });
    expect((await user.http.get('/api/auth/user', user.token)).status).toBe(200);
  });

  it('keeps a suspended user suspended when their record is saved with a new name', async () => {
    const user = await registerUser();
    const suspended = await suite.admin.http.put(`/api/admin/users/${user.id}`, { status: 'suspended', status_note: 'Unpaid invoices' }, suite.admin.token);
    expect(suspended.status).toBe(200);
    const record = await served(user.id);
    expect(record).toMatchObject({ status: 'suspended', status_note: 'Unpaid invoices' });

    const res = await putBack(user.id, { ...record, last_name: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ last_name: 'Renamed', status: 'suspended', status_note: 'Unpaid invoices' });
    expect(await row(user.id)).toMatchObject({ last_name: 'Renamed', status: 'suspended', status_note: 'Unpaid invoices' });

    // Reactivating through the edit is refused too.
    const reactivate = await putBack(user.id, { ...record, status: 'active', status_note: null });
    expect(reactivate.status).toBe(422);
    expect(reactivate.body.errors.status).toEqual([MESSAGES.statusReadOnlyInEdit]);
    expect((await row(user.id)).status).toBe('suspended');
  });

  it('refuses an id that is not the edited user', async () => {
    const a = await registerUser();
    const b = await registerUser();
    const record = await served(a.id);
    const res = await putBack(b.id, { ...record, email: b.email });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ id: [MESSAGES.userIdMismatch] });
    expect((await row(b.id)).email).toBe(b.email.toLowerCase());
    // The id as a string (a form may send it so) is the same id.
    const asString = await putBack(a.id, { ...record, id: String(a.id) });
    expect(asString.status).toBe(200);
  });

  it('ignores the served subscription and timestamps, even when they have moved since GET', async () => {
    const plan = await freePlan(suite.admin);
    const user = await subscribedUser(suite.admin, plan.id);
    const record = await served(user.id);
    expect(record.subscription).toMatchObject({ status: 'active', plan_id: plan.id });
    const subscriptionRow = await suite.db('branchify_subscriptions').where({ id: record.subscription!.id }).first();

    const res = await putBack(user.id, {
      ...record,
      first_name: 'Kept',
      subscription: { ...record.subscription, status: 'canceled', plan_id: 999999 },
      subscription_id: 999999,
      email_verified_at: null,
      created_at: '2001-01-01T00:00:00.000Z',
      updated_at: '2001-01-01T00:00:00.000Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ first_name: 'Kept', subscription_id: record.subscription_id, subscription: { status: 'active', plan_id: plan.id } });
    expect(res.body.data.email_verified_at).toBe(record.email_verified_at);
    expect(res.body.data.created_at).toBe(record.created_at);
    const after = await row(user.id);
    expect(after.subscription_id).toBe(record.subscription_id);
    expect(after.email_verified_at).not.toBeNull();
    expect(await suite.db('branchify_subscriptions').where({ id: record.subscription!.id }).first()).toEqual(subscriptionRow);
  });

  it('still validates the editable fields of a whole record', async () => {
    const user = await registerUser();
    const record = await served(user.id);
    const res = await putBack(user.id, { ...record, first_name: '', email: 'not-an-email' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'first_name']);
  });

  it('treats a body without editable fields as a status change, as before', async () => {
    const user = await registerUser();
    const res = await suite.admin.http.put(
      `/api/admin/users/${user.id}`,
      { status: 'suspended', status_note: 'Spam', current_status_ends_at: '' },
      suite.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MESSAGES.userSuspended);
    const back = await suite.admin.http.put(`/api/admin/users/${user.id}`, { status: 'active' }, suite.admin.token);
    expect(back.body.message).toBe(MESSAGES.userReactivated);
  });
});
