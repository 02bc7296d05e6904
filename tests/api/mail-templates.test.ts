// @serial: changes branding, the mailer, Stripe keys for the whole install (tests/harness/groups.js)
import { messageTemplates } from '@branchify/shared';
import { openDb } from './support/db';
import { configureMailer, removeMailer, sink, verifiedUserByMail } from './support/mail';
import { client } from './support/http';
import { CARDS, configureStripe, control, createPlan, currentSubscription, eventually } from './support/stripe';
import { registerUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

// A name and a reason that would be markup if they were not escaped.
const NAME = { first_name: '<b>Ann & "Co"</b>', last_name: "O'Hara" };
const NAME_ESCAPED = '&lt;b&gt;Ann &amp; &quot;Co&quot;&lt;/b&gt;';

beforeAll(async () => {
  await configureMailer(suite.admin);
});
afterAll(async () => {
  await suite.admin.http.post(
    '/api/admin/customizations',
    { app_name: 'branchify', app_email_templates: { new_user_welcome: null, password_reset: null } },
    suite.admin.token,
  );
  await removeMailer();
});

const expectEscapedName = (html: string) => {
  expect(html).toContain(NAME_ESCAPED);
  expect(html).toContain('O&#39;Hara');
  expect(html).not.toContain('<b>Ann');
};

describe('email templates, delivered through SMTP', () => {
  it('password_reset: names escaped, the reset link filled in', async () => {
    const user = await registerUser(NAME);
    await client().post('/api/auth/password/forgot', { email: user.email });
    const [mail] = await sink.waitFor(user.email, (m) => m.subject === 'Reset your branchify password');
    expectEscapedName(mail!.html);
    expect(mail!.html).toMatch(/href="http:\/\/localhost:1337\/password-reset\?token=[^"]+&amp;email=/);
    expect(mail!.text).toContain('<b>Ann & "Co"</b>');
    expect(mail!.html).not.toMatch(/\{\{\s*\w+\s*\}\}/);
  });

  it('new_user_welcome: sent once the email is verified', async () => {
    const user = await verifiedUserByMail(NAME);
    const [mail] = await sink.waitFor(user.email, (m) => m.subject === 'Welcome to branchify');
    expectEscapedName(mail!.html);
    expect(mail!.html).toContain(user.email);
  });

  it('account_suspended: carries the reason, escaped', async () => {
    const user = await registerUser(NAME);
    const res = await suite.admin.http.put(
      `/api/admin/users/${user.id}`,
      { status: 'suspended', status_note: '<script>alert(1)</script> & spam' },
      suite.admin.token,
    );
    expect(res.status).toBe(200);
    const [mail] = await sink.waitFor(user.email, (m) => /suspended/.test(m.subject));
    expectEscapedName(mail!.html);
    expect(mail!.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; spam');
    expect(mail!.html).not.toContain('<script>');
  });

  it('new_subscription: names the plan', async () => {
    const plan = await createPlan(suite.admin, { name: `Free <i>tier</i> ${Date.now()}`, price: '0', payment_schedule: 'free' });
    const user = await verifiedUserByMail(NAME);
    const res = await user.http.post('/api/users/subscriptions', { plan_id: plan.id }, user.token);
    expect(res.status).toBe(201);
    const [mail] = await sink.waitFor(user.email, (m) => /subscription is active/.test(m.subject));
    expect(mail!.subject).toContain('<i>tier</i>');
    expect(mail!.html).toContain('Free &lt;i&gt;tier&lt;/i&gt;');
    expectEscapedName(mail!.html);
  });

  it('subscription_renewal_failed and subscription_renewal_succeeded follow the renewal outcome', async () => {
    await configureStripe(suite.admin);
    const monthly = await createPlan(suite.admin, { price: '12.00', payment_schedule: 'monthly' });
    const user = await verifiedUserByMail(NAME);
    const res = await user.http.post('/api/users/subscriptions', { plan_id: monthly.id, payment_method_id: CARDS.visa }, user.token);
    expect(res.status).toBe(201);
    const sub = await eventually(
      () => currentSubscription(user),
      (s) => s?.status === 'active',
    );
    const db = openDb();
    const row = await db('branchify_subscriptions').where({ id: sub.id }).first();
    await db.destroy();

    await control('advance', { subscription: row.stripe_subscription_id, outcome: 'declined' });
    const [failed] = await sink.waitFor(user.email, (m) => m.subject === 'We could not renew your branchify subscription');
    expectEscapedName(failed!.html);

    await control('advance', { subscription: row.stripe_subscription_id, outcome: 'paid' });
    const [renewed] = await sink.waitFor(user.email, (m) => m.subject === 'Your branchify subscription was renewed');
    expectEscapedName(renewed!.html);
  });

  it("uses the admin's template and app name, and goes back to the default when cleared", async () => {
    const saved = await suite.admin.http.post(
      '/api/admin/customizations',
      {
        app_name: 'Acme <Funnels>',
        app_email_templates: { new_user_welcome: { subject: 'Hi {{first_name}}, welcome to {{ app_name }}', body: '<h1>{{app_name}}</h1><p>{{email}}</p>' } },
      },
      suite.admin.token,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.app_email_templates.new_user_welcome.subject).toBe('Hi {{first_name}}, welcome to {{ app_name }}');

    const user = await verifiedUserByMail({ first_name: 'Zoe' });
    const [mail] = await sink.waitFor(user.email, (m) => m.subject.startsWith('Hi Zoe'));
    expect(mail!.subject).toBe('Hi Zoe, welcome to Acme <Funnels>');
    expect(mail!.html).toContain('<h1>Acme &lt;Funnels&gt;</h1>');

    const cleared = await suite.admin.http.post(
      '/api/admin/customizations',
      { app_name: 'branchify', app_email_templates: { new_user_welcome: null } },
      suite.admin.token,
    );
    expect(cleared.body.data.app_email_templates.new_user_welcome.subject).toBe('Welcome to {{app_name}}');
  });

  it('lists the six templates with their variables for the admin form', async () => {
    const res = await suite.admin.http.get('/api/admin/customizations', suite.admin.token);
    const templates = res.body.data.app_email_templates;
    expect(Object.keys(templates).sort()).toEqual([
      'account_suspended',
      'new_subscription',
      'new_user_welcome',
      'password_reset',
      'subscription_renewal_failed',
      'subscription_renewal_succeeded',
    ]);
    for (const t of Object.values(templates) as Array<{
      subject: string;
      body: string;
      description: string;
      variables: Array<{ placeholder: string; description: string }>;
    }>) {
      expect(t.subject && t.body && t.description).toBeTruthy();
      expect(t.variables.map((v) => v.placeholder)).toEqual(expect.arrayContaining(['{{first_name}}', '{{last_name}}', '{{email}}']));
    }
    expect(templates.password_reset.variables.map((v: { placeholder: string }) => v.placeholder)).toContain('{{reset_link}}');
    expect(templates.account_suspended.variables.map((v: { placeholder: string }) => v.placeholder)).toContain('{{reason}}');
    expect(templates.new_subscription.variables.map((v: { placeholder: string }) => v.placeholder)).toContain('{{subscription_plan}}');
  });

  it('refuses a template that uses a variable it does not have', async () => {
    const res = await suite.admin.http.post(
      '/api/admin/customizations',
      { app_email_templates: { account_suspended: { body: 'Hi {{reset_link}}' }, nope: { subject: 'x' } } },
      suite.admin.token,
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['app_email_templates.account_suspended.body', 'app_email_templates.nope']);
  });

  it('names the required variables and refuses a body without them; null restores the default', async () => {
    const templates = (await suite.admin.http.get('/api/admin/customizations', suite.admin.token)).body.data.app_email_templates;
    const required = (key: string) =>
      templates[key].variables.filter((v: { required: boolean }) => v.required).map((v: { placeholder: string }) => v.placeholder);
    expect(required('password_reset')).toEqual(['{{reset_link}}']);
    expect(required('account_suspended')).toEqual(['{{reason}}']);
    expect(required('new_user_welcome')).toEqual([]);
    expect(templates.password_reset.default_body).toContain('{{reset_link}}');
    expect(templates.password_reset.default_subject).toBe('Reset your {{app_name}} password');

    const without = await suite.admin.http.post(
      '/api/admin/customizations',
      { app_email_templates: { password_reset: { subject: 'Reset', body: '<p>Hello {{first_name}}, click the link.</p>' } } },
      suite.admin.token,
    );
    expect(without.status).toBe(422);
    expect(without.body.errors).toEqual({
      'app_email_templates.password_reset.body': [messageTemplates.templateMissingRequired(['{{reset_link}}'])],
    });
    // Nothing was stored.
    const after = (await suite.admin.http.get('/api/admin/customizations', suite.admin.token)).body.data.app_email_templates;
    expect(after.password_reset.body).toBe(templates.password_reset.default_body);

    const withLink = await suite.admin.http.post(
      '/api/admin/customizations',
      { app_email_templates: { password_reset: { subject: 'Reset', body: '<p><a href="{{ reset_link }}">Reset</a></p>' } } },
      suite.admin.token,
    );
    expect(withLink.status).toBe(200);
    expect(withLink.body.data.app_email_templates.password_reset).toMatchObject({ subject: 'Reset', body: '<p><a href="{{ reset_link }}">Reset</a></p>' });

    const restored = await suite.admin.http.post('/api/admin/customizations', { app_email_templates: { password_reset: null } }, suite.admin.token);
    expect(restored.body.data.app_email_templates.password_reset).toMatchObject({
      subject: templates.password_reset.default_subject,
      body: templates.password_reset.default_body,
    });
  });
});
