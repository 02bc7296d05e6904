import path from 'node:path';
import { client } from './http';
import { runScript } from './run-script';
import { uniqueEmail } from './users';

const script = path.join(__dirname, '..', '..', '..', 'scripts', 'create-admin.js');

/**
 * A /cms super admin made the way an operator makes one (`npm run create-admin -- --cms`), signed
 * in through Strapi's admin API: the JWT for Strapi's own admin routes (API tokens, Content Manager).
 */
export const cmsOperatorJwt = async (firstName: string): Promise<string> => {
  const email = uniqueEmail(`${firstName.toLowerCase()}-operator`);
  const password = 'Operator-Secret-42';
  const made = await runScript(script, ['--email', email, '--password', password, '--first-name', firstName, '--last-name', 'Operator', '--cms']);
  if (made.status !== 0) throw new Error(`create-admin failed: ${made.stderr}`);
  const signIn = await client().post('/admin/login', { email, password });
  if (signIn.status !== 200) throw new Error(`/admin/login failed: ${signIn.status}`);
  return signIn.body.data.token as string;
};

/** A Strapi API token made through Strapi's admin API by a /cms super admin. */
export const apiToken = async (adminJwt: string, type: 'read-only' | 'full-access'): Promise<string> => {
  const res = await client().post(
    '/admin/api-tokens',
    { name: `integrator ${type} ${uniqueEmail('t')}`, description: 'API test', type, lifespan: null },
    adminJwt,
  );
  if (res.status !== 201) throw new Error(`api token failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.accessKey as string;
};
