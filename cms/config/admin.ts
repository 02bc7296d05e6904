import { env } from '@branchify/shared/node';

export default () => {
  const e = env();
  return {
    // Strapi's own admin lives at /cms so that /admin belongs to the Branchify admin panel.
    url: '/cms',
    serveAdminPanel: e.SERVE_ADMIN_PANEL,
    auth: { secret: e.ADMIN_JWT_SECRET },
    apiToken: { salt: e.API_TOKEN_SALT },
    transfer: { token: { salt: e.TRANSFER_TOKEN_SALT } },
    secrets: { encryptionKey: e.ENCRYPTION_KEY },
    flags: { nps: false, promoteEE: false },
    autoOpen: false,
    watchIgnoreFiles: ['**/.tmp/**'],
  };
};
