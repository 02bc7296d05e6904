import { env } from '@branchify/shared/node';

export default () => {
  const e = env();
  return {
    host: e.HOST,
    port: e.PORT,
    url: e.PUBLIC_URL,
    app: { keys: e.APP_KEYS },
    // X-Forwarded-For is trusted only behind a configured proxy, and only its last
    // PROXY_MAX_IPS_COUNT entries, so a client cannot pick the IP that rate limits key on.
    proxy: { koa: e.PROXY_ENABLED, maxIpsCount: e.PROXY_ENABLED ? e.PROXY_MAX_IPS_COUNT : 0 },
    // Strapi's own start banner invites registering the first /cms admin over the web, which
    // Branchify refuses; scripts/start.js prints what an operator can do instead.
    logger: { updates: { enabled: false }, startup: { enabled: false } },
  };
};
