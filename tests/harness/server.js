'use strict';
/**
 * Boots the real Strapi application (compiled cms/dist, the branchify plugin) on a free port.
 * Nothing is mocked: requests go through Koa, our middlewares and the database.
 */
const path = require('node:path');

const CMS_DIR = path.join(__dirname, '..', '..', 'cms');

async function startServer() {
  const { createStrapi } = require('@strapi/strapi');
  const app = createStrapi({ appDir: CMS_DIR, distDir: path.join(CMS_DIR, 'dist') });
  await app.load();
  await new Promise((resolve, reject) => {
    app.server.httpServer.once('error', reject);
    // server.listen mounts the routers before listening (httpServer.listen alone would not).
    app.server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = app.server.httpServer.address();
  return { app, url: `http://127.0.0.1:${port}` };
}

module.exports = { startServer };
