#!/usr/bin/env node
'use strict';
/**
 * Creates an administrator account (verified) in the configured database.
 *
 *   npm run create-admin -- --email admin@example.com --password 'a-long-secret' [--first-name Ada] [--last-name Lovelace]
 */
const path = require('node:path');
const { parseArgs } = require('node:util');

const usage = 'Usage: npm run create-admin -- --email <email> --password <password> [--first-name <name>] [--last-name <name>]';

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        'first-name': { type: 'string', default: 'Admin' },
        'last-name': { type: 'string', default: 'User' },
      },
    }));
  } catch (error) {
    console.error(`${error.message}\n${usage}`);
    return 2;
  }
  if (!values.email || !values.password) {
    console.error(usage);
    return 2;
  }

  process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'error';
  const root = path.resolve(__dirname, '..');
  const { createStrapi } = require(require.resolve('@strapi/strapi', { paths: [path.join(root, 'cms')] }));
  const { createUserSchema } = require(path.join(root, 'plugins/branchify/dist/server/users/validators'));

  const input = createUserSchema.safeParse({
    first_name: values['first-name'],
    last_name: values['last-name'],
    email: values.email,
    password: values.password,
    password_confirmation: values.password,
    is_admin: true,
  });
  if (!input.success) {
    for (const issue of input.error.issues) console.error(`${issue.path.join('.')}: ${issue.message}`);
    return 1;
  }

  const app = createStrapi({ appDir: path.join(root, 'cms'), distDir: path.join(root, 'cms', 'dist') });
  await app.load();
  try {
    const users = app.plugin('branchify').service('users');
    if (await users.emailTaken(input.data.email)) {
      console.error(`email: The email has already been taken.`);
      return 1;
    }
    const user = await users.create(input.data, { verified: true });
    console.log(`Admin account created: ${user.email} (id ${user.id})`);
    return 0;
  } finally {
    await app.destroy();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(`create-admin failed: ${error.message}`);
    process.exit(1);
  });
