'use strict';
/**
 * Changes a user's password the way code running inside the app could, outside Branchify's API:
 * through Strapi's document service (which hashes it) or its query layer (an already hashed value).
 *
 *   node strapi-write.js <documents|query|query-many> <userId> <password>
 */
const path = require('node:path');
const bcrypt = require('bcryptjs');

const CMS_DIR = path.join(__dirname, '..', '..', '..', 'cms');
const UID = 'plugin::users-permissions.user';

async function main() {
  const [layer, id, password] = process.argv.slice(2);
  process.env.LOG_LEVEL = 'error';
  const { createStrapi } = require(require.resolve('@strapi/strapi', { paths: [CMS_DIR] }));
  const app = createStrapi({ appDir: CMS_DIR, distDir: path.join(CMS_DIR, 'dist') });
  await app.load();
  try {
    const row = await app.db.query(UID).findOne({ where: { id: Number(id) }, select: ['id', 'documentId'] });
    if (layer === 'documents') await app.documents(UID).update({ documentId: row.documentId, data: { password } });
    else if (layer === 'query') await app.db.query(UID).update({ where: { id: row.id }, data: { password: bcrypt.hashSync(password, 10) } });
    else if (layer === 'query-many')
      await app.db.query(UID).updateMany({ where: { id: { $in: [row.id] } }, data: { password: bcrypt.hashSync(password, 10) } });
    else throw new Error(`unknown layer ${layer}`);
  } finally {
    await app.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error.message);
    process.exit(1);
  },
);
