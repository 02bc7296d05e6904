'use strict';

module.exports = async () => {
  const app = globalThis.__BRANCHIFY_STRAPI__;
  if (app) await app.destroy();
};
