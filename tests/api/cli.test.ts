import path from 'node:path';
import { client } from './support/http';
import { login, uniqueEmail } from './support/users';
import { runScript } from './support/run-script';

const script = path.join(__dirname, '..', '..', 'scripts', 'create-admin.js');
const run = (args: string[]) => runScript(script, args);

describe('npm run create-admin', () => {
  it('creates a verified admin who can log in and use the admin API', async () => {
    const email = uniqueEmail('cli-admin');
    const result = await run(['--email', email, '--password', 'cli-admin-secret', '--first-name', 'Cli', '--last-name', 'Admin']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`Admin account created: ${email.toLowerCase()}`));
    const session = await login(email, 'cli-admin-secret');
    const me = await client().get('/api/auth/user', session.token);
    expect(me.body.data).toMatchObject({ is_admin: true, first_name: 'Cli' });
    expect(me.body.data.email_verified_at).not.toBeNull();
    expect((await client().get('/api/admin/users', session.token)).status).toBe(200);
  });

  it('explains bad arguments and taken emails', async () => {
    const missing = await run(['--email', 'x@example.test']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/Usage: npm run create-admin/);
    const weak = await run(['--email', 'not-an-email', '--password', 'short']);
    expect(weak.status).toBe(1);
    expect(weak.stderr).toMatch(/email: The email field must be a valid email address\./);
    expect(weak.stderr).toMatch(/password: The password field must be at least 8 characters\./);
    const taken = await run(['--email', process.env.BRANCHIFY_ADMIN_EMAIL!, '--password', 'whatever-long']);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toMatch(/The email has already been taken/);
  });
});
