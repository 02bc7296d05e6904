// @serial: changes branding for the whole install (tests/harness/groups.js)
import { useApiSuite } from './support/suite';

/**
 * react-admin sends the whole record it was served on save: POST admin/customizations must take
 * GET admin/customizations back as it came, ignoring what is derived (`--*-rgb`) or read-only
 * (a template's description and variables, the mail banner flag, the timestamps).
 */
const suite = useApiSuite();

const TEMPLATES = [
  'password_reset',
  'new_subscription',
  'new_user_welcome',
  'account_suspended',
  'subscription_renewal_failed',
  'subscription_renewal_succeeded',
];

const served = async () => {
  const res = await suite.admin.http.get('/api/admin/customizations', suite.admin.token);
  expect(res.status).toBe(200);
  return res.body.data;
};
const save = (body: object) => suite.admin.http.post('/api/admin/customizations', body, suite.admin.token);
const stored = () => suite.db('branchify_customization').first();

/** Back to the defaults: no overrides stored. */
const reset = async () => {
  const res = await save({
    app_name: 'branchify',
    app_description: null,
    app_support_url: null,
    app_logo_url: null,
    app_favicon_url: null,
    app_color_scheme: {
      primary: '#2f27ce',
      secondary: '#dedcff',
      accent: '#433bff',
      background: '#fbfbfe',
      white: '#ffffff',
      dark: '#050315',
      'sidebar-width': '270px',
    },
    app_email_templates: Object.fromEntries(TEMPLATES.map((t) => [t, null])),
  });
  expect(res.status).toBe(200);
};

beforeAll(async () => {
  await reset();
});
afterAll(async () => {
  await reset();
});

describe('POST admin/customizations takes back what GET served', () => {
  it('the defaults as served: 200, nothing stored, nothing changed', async () => {
    const before = await served();
    const rowBefore = await stored();
    const res = await save(before);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('App customization was updated successfully');
    expect(await served()).toEqual(before);
    // Values equal to their defaults are no overrides: the row is untouched (updated_at included).
    expect(await stored()).toEqual(rowBefore);
  });

  it('a customized record as served: 200 and stored values unchanged', async () => {
    const first = await save({
      app_name: 'Acme Funnels',
      app_description: 'Branching videos',
      app_support_url: 'https://help.acme.test',
      app_color_scheme: { primary: '#ff0000', 'sidebar-width': '300px' },
      app_email_templates: { new_user_welcome: { subject: 'Hi {{first_name}}', body: '<p>Welcome to {{app_name}}</p>' } },
    });
    expect(first.status).toBe(200);
    const before = await served();
    const rowBefore = await stored();
    expect(before.app_color_scheme['--primary-rgb']).toBe('255, 0, 0');
    expect(before.app_email_templates.new_user_welcome.variables.length).toBeGreaterThan(0);

    const res = await save(before);
    expect(res.status).toBe(200);
    expect(await served()).toEqual(before);
    expect(await stored()).toEqual(rowBefore);
  });

  it('an edited record with stale derived values: the edit counts, the derived value follows it', async () => {
    const record = await served();
    record.app_color_scheme['--primary'] = '#00ff00';
    // --primary-rgb still says '255, 0, 0', as a form that only changed the colour sends it.
    record.app_email_templates.password_reset.subject = 'Reset your password, {{first_name}}';
    const res = await save(record);
    expect(res.status).toBe(200);
    const after = await served();
    expect(after.app_color_scheme['--primary']).toBe('#00ff00');
    expect(after.app_color_scheme['--primary-rgb']).toBe('0, 255, 0');
    expect(after.app_email_templates.password_reset.subject).toBe('Reset your password, {{first_name}}');
  });

  it('tampered derived and read-only fields are ignored: DB unchanged', async () => {
    const before = await served();
    const rowBefore = await stored();
    const tampered = structuredClone(before);
    tampered.app_color_scheme['--primary-rgb'] = '1, 2, 3';
    tampered.app_color_scheme['--dark-rgb'] = 'red;}</style><script>';
    tampered.app_email_templates.account_suspended.description = 'Hacked description';
    tampered.app_email_templates.account_suspended.variables = [{ placeholder: '{{password}}', description: 'The password' }];
    tampered.mailer_configured = !before.mailer_configured;
    tampered.created_at = '1999-01-01T00:00:00.000Z';
    tampered.updated_at = '1999-01-01T00:00:00.000Z';
    const res = await save(tampered);
    expect(res.status).toBe(200);
    expect(await served()).toEqual(before);
    expect(await stored()).toEqual(rowBefore);
    expect(JSON.stringify(await stored())).not.toContain('Hacked');
  });

  it('still refuses what is wrong in the editable fields (422, DB unchanged)', async () => {
    const record = await served();
    const rowBefore = await stored();
    record.app_color_scheme['--primary'] = 'not-a-colour';
    record.app_email_templates.new_subscription.body = 'Your {{password}}';
    const res = await save(record);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['app_color_scheme.--primary', 'app_email_templates.new_subscription.body']);
    expect(await stored()).toEqual(rowBefore);
  });

  it('a template sent back equal to its default stores no override', async () => {
    await reset();
    const defaults = await served();
    await save({ app_email_templates: { new_subscription: { subject: 'Custom {{subscription_plan}}' } } });
    const custom = await served();
    expect(custom.app_email_templates.new_subscription.subject).toBe('Custom {{subscription_plan}}');
    // The admin types the default text back in.
    await save({ app_email_templates: { new_subscription: defaults.app_email_templates.new_subscription } });
    const row = await stored();
    const templates = typeof row.app_email_templates === 'string' ? JSON.parse(row.app_email_templates) : row.app_email_templates;
    expect(templates?.new_subscription).toBeUndefined();
    expect(await served()).toEqual({ ...defaults, updated_at: expect.any(String) });
  });
});
