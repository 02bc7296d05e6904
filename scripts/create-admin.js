#!/usr/bin/env node
'use strict';
/**
 * Creates an administrator account (verified) in the configured database. With --cms it also
 * creates a super admin of Strapi's own admin at /cms (content manager, API tokens), with the same
 * email and password: the only way in to /cms, since Strapi's web registration is closed.
 *
 *   npm run create-admin -- --email admin@example.com --password 'A-long-secret-1' [--first-name Ada] [--last-name Lovelace] [--cms]
 */
const path = require('node:path');
const { parseArgs } = require('node:util');

const usage = 'Usage: npm run create-admin -- --email <email> --password <password> [--first-name <name>] [--last-name <name>] [--cms]';

/** Strapi's own password rule for its administrators (stricter than ours). */
const strapiPasswordProblems = (password) => {
  const problems = [];
  if (password.length < 8) problems.push('must be at least 8 characters long');
  if (!/[a-z]/.test(password)) problems.push('must contain at least one lowercase character');
  if (!/[A-Z]/.test(password)) problems.push('must contain at least one uppercase character');
  if (!/\d/.test(password)) problems.push('must contain at least one number');
  return problems;
};

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        'first-name': { type: 'string', default: 'Admin' },
        'last-name': { type: 'string', default: 'User' },
        cms: { type: 'boolean', default: false },
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
  const { createUserSchema } = require('@branchify/shared');

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
  // Checked before anything is written, so a refusal leaves neither account behind.
  const cmsProblems = values.cms ? strapiPasswordProblems(values.password) : [];
  if (cmsProblems.length) {
    for (const problem of cmsProblems) console.error(`password: ${problem} (Strapi's rule for /cms administrators)`);
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
    if (values.cms && (await app.admin.services.user.exists({ email: input.data.email }))) {
      console.error(`email: a /cms administrator with this email already exists.`);
      return 1;
    }
    const user = await users.create(input.data, { verified: true });
    console.log(`Admin account created: ${user.email} (id ${user.id})`);
    if (values.cms) {
      const superAdmin = await app.admin.services.role.getSuperAdmin();
      await app.admin.services.user.create({
        email: input.data.email,
        firstname: input.data.first_name,
        lastname: input.data.last_name,
        password: input.data.password,
        registrationToken: null,
        isActive: true,
        roles: [superAdmin.id],
      });
      console.log(`/cms super admin created: ${user.email} (sign in at /cms)`);
    }
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
