import { MEDIA_SOURCES, env } from '@branchify/shared/node';

export default () => [
  // Liveness and readiness probes (/_live, /_ready), and the count of requests in flight that the
  // graceful shutdown waits for: first, so nothing else runs for a probe.
  'plugin::branchify.probes',
  'strapi::logger',
  'strapi::errors',
  // A path that does not decode (400) or has an empty segment (404) goes no further; guards below
  // compare the normalised path (plugins/branchify/server/src/http/request-path.ts).
  'plugin::branchify.path-guard',
  // Strapi's first-admin registration is closed: the operator creates the /cms admin with the CLI.
  'plugin::branchify.cms-guard',
  // Our /api envelope sits inside Strapi's error handler, so everything under /api answers
  // { success, message, errors } and Strapi's own shape is kept for /cms.
  'plugin::branchify.api-envelope',
  {
    name: 'strapi::security',
    config: {
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // Stripe.js (card entry) and the YouTube IFrame API (previews) load from their origins.
          'script-src': ["'self'", 'https://js.stripe.com', 'https://www.youtube.com', 'https://s.ytimg.com'],
          'connect-src': ["'self'", 'https:'],
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          // Video from the same sources as on the player page: the editor's stage plays what the player plays.
          'media-src': [...MEDIA_SOURCES],
          'frame-src': ["'self'", 'https:'],
          upgradeInsecureRequests: null,
        },
      },
    },
  },
  {
    // The web apps live on the API's own origin; other origins get no credentialed access
    // (the refresh-token endpoint answers with an access token).
    name: 'strapi::cors',
    config: { origin: [env().PUBLIC_URL, ...(env().CORS_ORIGINS ?? [])], credentials: true },
  },
  // The web apps: /build assets, /player pages and the single-page app's index.html.
  'plugin::branchify.spa',
  // Nothing served from /uploads runs on this origin (downloads, or a sandbox without scripts).
  'plugin::branchify.uploads',
  // The public player payload, answered before the router (a hot path that needs none of it).
  'plugin::branchify.player-payload',
  'strapi::poweredBy',
  'strapi::query',
  // Wrapped by the branchify plugin (middlewares/body.ts): /api writes take JSON; multipart is read
  // only by the upload routes, after their authentication; the Stripe webhook reads its raw bytes.
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
