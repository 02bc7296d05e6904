import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startFreshInstall, type FreshInstall } from '../harness/fresh-install';
import { runScript } from './support/run-script';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the harness context is CommonJS
const { freshSecrets } = require('../harness/context');

const root = path.join(__dirname, '..', '..');
const postgres = Boolean(process.env.DATABASE_URL);

/** The fresh install's database, named here so the seed writes to the same one as the server. */
const database = (scratch: string, schema: string): Record<string, string> =>
  postgres ? { DATABASE_SCHEMA: schema } : { DATABASE_FILENAME: path.join(scratch, 'data.db') };

const onPostgres = async (sql: string) => {
  const pg = new Client({ connectionString: process.env.DATABASE_URL });
  await pg.connect();
  try {
    await pg.query(sql);
  } finally {
    await pg.end();
  }
};

interface Registered {
  status: number;
  token: string | undefined;
  isAdmin: boolean | undefined;
}

/**
 * The README's first run with the demo: `npm run seed -- --demo` on an empty install, then the
 * first people register. The demo creator is no administrator, and the first registration still is.
 */
describe('the first registration after `npm run seed -- --demo` on a fresh install', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-first-demo-'));
  const schema = `bf_first_demo_${Date.now().toString(36)}_${process.pid}`;
  const env: Record<string, string> = {
    ...(freshSecrets() as Record<string, string>),
    ...database(scratch, schema),
    BRANCHIFY_ENV_FILE: path.join(scratch, '.env'),
  };
  let install: FreshInstall;

  beforeAll(async () => {
    if (postgres) await onPostgres(`CREATE SCHEMA "${schema}"`);
    install = await startFreshInstall(env);
  });
  afterAll(async () => {
    await install?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
    if (postgres) await onPostgres(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });

  const register = (n: number): Promise<Registered> =>
    fetch(`${install.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        first_name: `Person${n}`,
        last_name: 'Early',
        email: `early-${n}@example.test`,
        password: 'early-person-1',
        password_confirmation: 'early-person-1',
      }),
    }).then(async (r) => {
      const body = (await r.json()) as { data?: { access_token?: string; user?: { is_admin?: boolean } } };
      return { status: r.status, token: body.data?.access_token, isAdmin: body.data?.user?.is_admin };
    });

  const adminUsers = (token: string | undefined) =>
    fetch(`${install.url}/api/admin/users`, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });

  it('makes exactly one of two simultaneous registrations the administrator; the demo creator stays a creator', async () => {
    const seeded = await runScript(path.join(root, 'scripts', 'seed.js'), ['--demo'], { env: { ...process.env, ...env, PUBLIC_URL: install.url } });
    expect(seeded.stderr).toBe('');
    expect(seeded.status).toBe(0);
    expect(seeded.stdout).toContain('creator demo@example.com');

    const both = await Promise.all([register(1), register(2)]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    const admins = both.filter((r) => r.isAdmin);
    expect(admins).toHaveLength(1);
    const other = both.find((r) => !r.isAdmin)!;

    // The administrator reaches the admin routes; the other person and the demo creator do not.
    expect((await adminUsers(admins[0]!.token)).status).toBe(200);
    expect((await adminUsers(other.token)).status).toBe(403);
    const demo = await fetch(`${install.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@example.com', password: 'branchify-demo' }),
    }).then((r) => r.json() as Promise<{ data: { access_token: string; user: { is_admin: boolean } } }>);
    expect(demo.data.user.is_admin).toBe(false);
    expect((await adminUsers(demo.data.access_token)).status).toBe(403);

    // The seat is taken once: a later registration is a creator.
    expect((await register(3)).isAdmin).toBe(false);
  });
});
