import path from 'node:path';
import { openDb } from './support/db';
import { client } from './support/http';
import { registerUser, uniqueEmail } from './support/users';
import { runScript } from './support/run-script';

const script = path.join(__dirname, '..', '..', 'scripts', 'create-admin.js');
const run = (args: string[]) => runScript(script, args);

/**
 * Strapi's admin API (/admin/*) stays mounted whether or not its panel is served. Its first super
 * admin must never be claimable over HTTP: the operator creates it with the CLI.
 */
describe("Strapi's /cms administrator", () => {
  const db = openDb();
  afterAll(() => db.destroy());

  it('refuses anonymous first-admin registration and never invites it', async () => {
    const http = client();
    const email = uniqueEmail('cms-claim');
    const res = await http.post('/admin/register-admin', { email, password: 'Takeover-1234', firstname: 'Mallory' });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toMatch(/token/i);
    expect(await db('admin_users').where({ email }).first()).toBeUndefined();

    const init = await http.get('/admin/init');
    expect(init.status).toBe(200);
    expect(init.body.data.hasAdmin).toBe(true);
  });

  describe('npm run create-admin -- --cms', () => {
    const email = uniqueEmail('cms-operator');
    const password = 'Operator-Secret-42';

    it('creates the Branchify admin and a /cms super admin who can sign in to Strapi', async () => {
      const result = await run(['--email', email, '--password', password, '--first-name', 'Olga', '--last-name', 'Operator', '--cms']);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/Admin account created/);
      expect(result.stdout).toMatch(/\/cms super admin created/);

      const signIn = await client().post('/admin/login', { email, password });
      expect(signIn.status).toBe(200);
      expect(typeof signIn.body.data.token).toBe('string');
      const roles = await db('admin_users as u')
        .join('admin_users_roles_lnk as l', 'l.user_id', 'u.id')
        .join('admin_roles as r', 'r.id', 'l.role_id')
        .where('u.email', email.toLowerCase())
        .select('r.code');
      expect(roles.map((r: { code: string }) => r.code)).toContain('strapi-super-admin');
    });

    it("explains Strapi's stronger password rule instead of failing half-way", async () => {
      const weak = await run(['--email', uniqueEmail('cms-weak'), '--password', 'all-lowercase-pass', '--cms']);
      expect(weak.status).toBe(1);
      expect(weak.stderr).toMatch(/uppercase/);
    });

    it('leaves the fields that carry authority out of the Content Manager', async () => {
      const signIn = await client().post('/admin/login', { email, password });
      const token = signIn.body.data.token as string;
      const victim = await registerUser();
      const row = await db('up_users').where({ id: victim.id }).first();
      const uid = 'plugin::users-permissions.user';
      const url = `/content-manager/collection-types/${uid}/${row.document_id}`;

      const shown = await client().get(url, token);
      expect(shown.status).toBe(200);
      for (const field of ['is_admin', 'status', 'email_verified_at', 'token_version', 'subscription_id']) {
        expect(shown.body.data).not.toHaveProperty(field);
      }

      const edit = await client().put(
        url,
        { is_admin: true, status: 'suspended', email_verified_at: new Date().toISOString(), token_version: 99, first_name: 'Renamed' },
        token,
      );
      expect(edit.status).toBe(200);
      const after = await db('up_users').where({ id: victim.id }).first();
      expect(after.first_name).toBe('Renamed');
      expect(Boolean(after.is_admin)).toBe(false);
      expect(after.status).toBe('active');
      expect(after.email_verified_at).toBeNull();
      expect(Number(after.token_version)).toBe(0);
    });
  });
});
