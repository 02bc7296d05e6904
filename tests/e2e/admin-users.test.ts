import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { openDb } from '../api/support/db';
import { adminSession, login, PASSWORD, registerUser, uniqueEmail, type Session } from '../api/support/users';
import { expectAlert, expectConsoleErrors, launch, loginViaUi, openApp, failedRequest, shot, still, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

/**
 * The admin panel's users: the list (search, paging, sorting, badges), the user page, and the
 * create-user, edit-user, suspend-user and delete-user modals with their refusals, against the real
 * server.
 */
describeBrowser('admin panel: users', () => {
  let browser: Browser;
  let db: Knex;
  let admin: Session;
  /** The admin who uses the panel in this suite (its own account, so its logins are its own). */
  let me: { id: number; email: string };
  let context: BrowserContext;
  let page: Page;

  const createUser = async (overrides: Record<string, unknown> = {}) => {
    const email = uniqueEmail('panel');
    const res = await admin.http.post(
      '/api/admin/users',
      { first_name: 'Panel', last_name: 'User', email, password: PASSWORD, password_confirmation: PASSWORD, ...overrides },
      admin.token,
    );
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: number; email: string; first_name: string; last_name: string };
  };
  const row = (id: number) => db('up_users').where({ id }).first();
  const modal = (name: string) => page.locator(`[data-modal="${name}"]`);

  /** The list as it first opens (react-admin remembers the last search, page and sort). */
  const openList = async () => {
    await page.goto(`/admin/users?filter=${encodeURIComponent('{}')}&page=1&perPage=25&sort=id&order=DESC`);
    await page.getByRole('link', { name: 'Grace Panel' }).waitFor();
  };

  const openUserPage = async (id: number, name: string) => {
    await page.goto(`/admin/users/${id}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };

  beforeAll(async () => {
    browser = await launch();
    db = openDb();
    admin = await adminSession();
    const email = uniqueEmail('panel-admin');
    const created = await admin.http.post(
      '/api/admin/users',
      { first_name: 'Grace', last_name: 'Panel', email, password: PASSWORD, password_confirmation: PASSWORD, is_admin: true },
      admin.token,
    );
    me = { id: created.body.data.id, email };
    ({ context, page } = await openApp(browser));
    await loginViaUi(page, email, PASSWORD);
    await waitForPath(page, '/admin/users');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await db?.destroy();
  });

  it('lists users with search, paging, sorting and status badges; a row opens the user page', async () => {
    const tag = `Quill${Date.now().toString(36)}`;
    const a = await createUser({ first_name: 'Amelia', last_name: tag });
    const b = await createUser({ first_name: 'Bruno', last_name: tag });
    const c = await createUser({ first_name: 'Cyrus', last_name: tag });
    await admin.http.put(`/api/admin/users/${b.id}`, { status: 'suspended', status_note: 'Chargebacks' }, admin.token);

    await openList();
    await shot(page, '100-admin-users-list');

    await page.getByRole('textbox', { name: 'Search by name or email' }).fill(tag);
    await page.waitForURL((url) => url.search.includes(tag));
    const rows = page.locator('tbody tr');
    await page.getByRole('link', { name: `Cyrus ${tag}` }).waitFor();
    // The unfiltered page may still be on screen for a moment: wait for the search's answer.
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 3);
    expect(await rows.count()).toBe(3);
    // Newest first by default.
    expect(await rows.nth(0).innerText()).toContain('Cyrus');
    const bruno = rows.filter({ hasText: 'Bruno' });
    expect(await bruno.locator('[data-badge]').first().getAttribute('data-badge')).toBe('suspended');
    expect(await bruno.locator('[data-badge]').first().innerText()).toMatch(/suspended/i);
    expect(await rows.filter({ hasText: 'Amelia' }).locator('[data-badge]').first().getAttribute('data-badge')).toBe('active');
    await shot(page, '101-admin-users-search');

    // Sorting by email, ascending then descending.
    await page.locator('thead').getByText('Email', { exact: true }).click();
    await page.waitForURL((url) => url.search.includes('sort=email'));
    await page.waitForFunction((first) => document.querySelector('tbody tr')?.textContent?.includes(first), [a.email, b.email, c.email].sort()[0]!);
    const sortedEmails = await rows.locator('td.column-email').allInnerTexts();
    expect(sortedEmails).toEqual([...sortedEmails].sort());

    // Paging: two a page.
    await page.goto(`/admin/users?filter=${encodeURIComponent(JSON.stringify({ q: tag }))}&perPage=2&page=1&sort=first_name&order=ASC`);
    await page.getByText('1-2 of 3').waitFor();
    expect(await rows.count()).toBe(2);
    await page.getByRole('button', { name: 'Go to page 2' }).click();
    await page.getByText('3-3 of 3').waitFor();
    await page.getByRole('link', { name: `Cyrus ${tag}` }).waitFor();
    await shot(page, '102-admin-users-paged');

    // A row click opens the user page.
    await rows.filter({ hasText: 'Cyrus' }).locator('td.column-email').click();
    await waitForPath(page, `/admin/users/${c.id}`);
    await page.getByRole('heading', { level: 1, name: `Cyrus ${tag}` }).waitFor();
    await page.getByRole('region', { name: 'Details' }).getByText(c.email).waitFor();
    await page.getByRole('region', { name: 'Subscription' }).getByText('This user has no subscription.').waitFor();
    await page.getByRole('region', { name: 'Invoices' }).getByText('No invoices yet.').waitFor();
    await shot(page, '103-admin-user-page');
  });

  it('creates a user: the admin toggle starts off, the fields are checked, the list reloads', async () => {
    expectConsoleErrors(page, failedRequest(422, '/api/admin/users'), 'the empty form is sent: the API names the missing fields');
    await openList();
    await page.getByRole('button', { name: 'Create User' }).click();
    const create = modal('create-user');
    await create.getByRole('heading', { name: 'Create User' }).waitFor();
    expect(await create.getByRole('switch', { name: 'Admin' }).isChecked()).toBe(false);

    await create.getByRole('button', { name: 'Create User' }).click();
    await create.getByText('The first name field is required.').waitFor();
    await create.getByText('The email field is required.').waitFor();
    await still(page);
    await shot(page, '104-create-user-errors');

    const email = uniqueEmail('created-in-panel');
    await create.getByLabel('First name (required)', { exact: true }).fill('Nadia');
    await create.getByLabel('Last name (required)', { exact: true }).fill('Created');
    await create.getByLabel('Email (required)', { exact: true }).fill(email);
    await create.getByLabel('Password (required)', { exact: true }).fill(PASSWORD);
    await create.getByLabel('Confirm password (required)', { exact: true }).fill('not-the-same-1');
    await create.getByRole('button', { name: 'Create User' }).click();
    await create.getByText('The password field confirmation does not match.').waitFor();
    await create.getByLabel('Confirm password (required)', { exact: true }).fill(PASSWORD);
    await shot(page, '105-create-user-filled');
    await create.getByRole('button', { name: 'Create User' }).click();

    expect(await expectAlert(page, MESSAGES.userCreated)).toBe('success');
    await create.waitFor({ state: 'detached' });
    // The list reloads without a page load: the new user is the newest row.
    await page.getByRole('link', { name: 'Nadia Created' }).waitFor();
    const stored = await db('up_users').where({ email: email.toLowerCase() }).first();
    expect(Boolean(stored.is_admin)).toBe(false);
    expect(stored.email_verified_at).not.toBeNull();
    await login(email, PASSWORD);

    // A taken email is refused at the field.
    await page.getByRole('button', { name: 'Create User' }).click();
    await create.getByLabel('First name (required)', { exact: true }).fill('Again');
    await create.getByLabel('Last name (required)', { exact: true }).fill('Taken');
    await create.getByLabel('Email (required)', { exact: true }).fill(email);
    await create.getByLabel('Password (required)', { exact: true }).fill(PASSWORD);
    await create.getByLabel('Confirm password (required)', { exact: true }).fill(PASSWORD);
    await create.getByRole('button', { name: 'Create User' }).click();
    await create.getByText(MESSAGES.emailTaken).waitFor();
    await create.getByRole('button', { name: 'Cancel' }).click();
    await create.waitFor({ state: 'detached' });
  });

  it('creates a user with the keyboard only', async () => {
    await openList();
    // Tab to the Create User button and open the modal with Enter.
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === 'Create User') break;
    }
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Create User');
    await page.keyboard.press('Enter');
    const create = modal('create-user');
    await create.getByRole('heading', { name: 'Create User' }).waitFor();
    const email = uniqueEmail('keyboard');
    // First name has the focus; Tab moves through the fields (past the password's show button).
    await page.keyboard.type('Kira');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Keys');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    // Space turns the admin toggle on.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await create.getByRole('switch', { name: 'Admin' }).isChecked()).toBe(true);
    await shot(page, '106-create-user-keyboard');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    expect(await expectAlert(page, MESSAGES.userCreated)).toBe('success');
    await create.waitFor({ state: 'detached' });
    const stored = await db('up_users').where({ email: email.toLowerCase() }).first();
    expect(stored).toMatchObject({ first_name: 'Kira', last_name: 'Keys' });
    expect(Boolean(stored.is_admin)).toBe(true);
  });

  it('marks an unverified account verified from the user page', async () => {
    const user = await registerUser({ first_name: 'Vera', last_name: 'Unverified' });
    await openUserPage(user.id, 'Vera Unverified');
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('Not verified').waitFor();
    const mark = details.getByRole('button', { name: 'Mark as verified' });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await mark.scrollIntoViewIfNeeded();
      await shot(page, `109-user-not-verified-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
    await mark.click();
    expect(await expectAlert(page, MESSAGES.accountVerified)).toBe('success');
    // The page shows it without a reload; the button is gone.
    await details.getByText('Not verified').waitFor({ state: 'detached' });
    expect(await mark.count()).toBe(0);
    expect((await row(user.id)).email_verified_at).not.toBeNull();
    expect((await user.http.get('/api/users/subscriptions', user.token)).status).toBe(200);
  });

  it('edits first name, last name and email; the admin role is shown read-only', async () => {
    const user = await createUser({ first_name: 'Edith', last_name: 'Before' });
    await openUserPage(user.id, 'Edith Before');
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = modal('edit-user');
    await edit.getByRole('heading', { name: 'Edit User' }).waitFor();
    const role = edit.getByRole('switch', { name: 'Admin' });
    expect(await role.isDisabled()).toBe(true);
    expect(await role.isChecked()).toBe(false);
    await edit.getByText(MESSAGES.adminRoleReadOnly).waitFor();
    expect(await edit.getByLabel('First name (required)', { exact: true }).inputValue()).toBe('Edith');

    await edit.getByLabel('Email (required)', { exact: true }).fill('not-an-email');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('The email field must be a valid email address.').waitFor();
    const email = uniqueEmail('edited');
    await edit.getByLabel('Last name (required)', { exact: true }).fill('After');
    await edit.getByLabel('Email (required)', { exact: true }).fill(email);
    await still(page);
    await shot(page, '107-edit-user');
    await edit.getByRole('button', { name: 'Save' }).click();
    expect(await expectAlert(page, MESSAGES.userUpdated)).toBe('success');
    await edit.waitFor({ state: 'detached' });
    // The page shows the new values without a reload.
    await page.getByRole('heading', { level: 1, name: 'Edith After' }).waitFor();
    await page.getByRole('region', { name: 'Details' }).getByText(email.toLowerCase()).waitFor();
    expect(await row(user.id)).toMatchObject({ last_name: 'After', email: email.toLowerCase(), is_admin: expect.anything() });
    expect(Boolean((await row(user.id)).is_admin)).toBe(false);
    await login(email, PASSWORD);
  });

  it('suspends with a required reason (the user cannot log in), then reactivates', async () => {
    const user = await createUser({ first_name: 'Sam', last_name: 'Suspended' });
    await openUserPage(user.id, 'Sam Suspended');
    await page.getByRole('button', { name: 'Suspend' }).click();
    const suspend = modal('suspend-user');
    await suspend.getByRole('heading', { name: 'Suspend User' }).waitFor();
    const reason = suspend.getByLabel('Reason (required)');
    expect(await reason.getAttribute('rows')).toBe('6');
    await suspend.getByRole('button', { name: 'Suspend User' }).click();
    await suspend.getByText('The status note field is required.').waitFor();
    expect((await row(user.id)).status).toBe('active');
    await reason.fill('Repeated chargebacks');
    await still(page);
    await shot(page, '108-suspend-user');
    await suspend.getByRole('button', { name: 'Suspend User' }).click();
    expect(await expectAlert(page, MESSAGES.userSuspended)).toBe('success');
    await suspend.waitFor({ state: 'detached' });
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('Repeated chargebacks').waitFor();
    expect(await details.locator('[data-badge]').getAttribute('data-badge')).toBe('suspended');
    expect(await row(user.id)).toMatchObject({ status: 'suspended', status_note: 'Repeated chargebacks' });
    await shot(page, '109-user-suspended');

    // The suspended user cannot log in.
    const visitor = await openApp(browser);
    expectConsoleErrors(visitor.page, failedRequest(403, '/api/auth/login'), 'the suspended user is refused sign-in');
    await loginViaUi(visitor.page, user.email, PASSWORD);
    expect(await expectAlert(visitor.page, MESSAGES.accountSuspended)).toBe('error');
    expect(new URL(visitor.page.url()).pathname).toBe('/login');
    await shot(visitor.page, '110-suspended-user-login');
    await visitor.context.close();

    // Reactivate: no reason asked.
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await suspend.getByRole('heading', { name: 'Reactivate User' }).waitFor();
    expect(await suspend.getByLabel(/Reason/).count()).toBe(0);
    await still(page);
    await shot(page, '111-reactivate-user');
    await suspend.getByRole('button', { name: 'Reactivate User' }).click();
    expect(await expectAlert(page, MESSAGES.userReactivated)).toBe('success');
    await suspend.waitFor({ state: 'detached' });
    expect(await page.getByRole('region', { name: 'Details' }).locator('[data-badge]').getAttribute('data-badge')).toBe('active');
    expect(await row(user.id)).toMatchObject({ status: 'active', status_note: null });
    await login(user.email, PASSWORD);
  });

  it('does not suspend an admin: the modal says so and nothing is sent', async () => {
    const other = await createUser({ first_name: 'Otto', last_name: 'Admin', is_admin: true });
    await openUserPage(other.id, 'Otto Admin');
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/api/admin/users/')) puts.push(r.url());
    });
    await page.getByRole('button', { name: 'Suspend' }).click();
    const suspend = modal('suspend-user');
    await suspend.getByText(MESSAGES.adminCannotBeSuspended).waitFor();
    expect(await suspend.getByRole('button', { name: 'Suspend User' }).count()).toBe(0);
    await still(page);
    await shot(page, '112-suspend-admin-refused');
    await suspend.getByRole('button', { name: 'Close', exact: true }).click();
    await suspend.waitFor({ state: 'detached' });
    expect(puts).toEqual([]);
    expect((await row(other.id)).status).toBe('active');
    // Admins hold no subscriptions either.
    await page.getByRole('region', { name: 'Subscription' }).getByText(MESSAGES.adminNoSubscriptions).waitFor();
  });

  it('never offers to delete your own account, and the API refuses it', async () => {
    expectConsoleErrors(page, failedRequest(403, '/api/admin/users/'), 'the test sends the DELETE itself: the API refuses deleting your own account');
    await openUserPage(me.id, 'Grace Panel');
    await page.getByText('You', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Suspend' }).count()).toBe(0);
    await shot(page, '113-own-account');
    // What the browser holds cannot do it either.
    const res = await page.evaluate(async (id) => {
      const token = await fetch('/api/auth/refresh-token', { method: 'POST', headers: { 'X-Requested-With': 'XMLHttpRequest' } }).then((r) => r.json());
      const answer = await fetch(`/api/admin/users/${id}`, {
        method: 'DELETE',
        headers: { 'X-Requested-With': 'XMLHttpRequest', Authorization: `Bearer ${token.data.access_token}` },
      });
      return { status: answer.status, body: await answer.json() };
    }, me.id);
    expect(res).toEqual({ status: 403, body: { success: false, message: MESSAGES.cannotDeleteSelf } });
    expect(await row(me.id)).toBeDefined();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Grace Panel' }).waitFor();
  });

  it('deletes another user after a confirmation and goes back to the list', async () => {
    const user = await createUser({ first_name: 'Dora', last_name: 'Deleted' });
    const other = await registerUser();
    await openUserPage(user.id, 'Dora Deleted');
    await page.getByRole('button', { name: 'Delete' }).click();
    const remove = modal('delete-user');
    await remove.getByText(user.email).waitFor();
    await still(page);
    await shot(page, '114-delete-user');
    // Cancel keeps the user.
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await remove.waitFor({ state: 'detached' });
    expect(await row(user.id)).toBeDefined();

    await page.getByRole('button', { name: 'Delete' }).click();
    await remove.getByRole('button', { name: 'Delete User' }).click();
    expect(await expectAlert(page, MESSAGES.userDeleted)).toBe('success');
    await waitForPath(page, '/admin/users');
    await remove.waitFor({ state: 'detached' });
    expect(await row(user.id)).toBeUndefined();
    expect(await row(other.id)).toBeDefined();
    await page.getByRole('link', { name: 'Grace Panel' }).waitFor();
    expect(await page.getByRole('link', { name: 'Dora Deleted' }).count()).toBe(0);
    await shot(page, '115-after-delete');
  });
});
