import { constants } from 'node:zlib';
import { COMPRESS_MIN_BYTES, MEDIA_SOURCES, env, isCompressibleType } from '@branchify/shared/node';

export default () => [
  // Liveness and readiness probes (/_live, /_ready), and the count of requests in flight that the
  // graceful shutdown waits for: first, so nothing else runs for a probe.
  'plugin::branchify.probes',
  // The player page and payload a viewer loads, sent from cached bytes with the headers the rest
  // of the chain gave them the first time (the chain below still renders every first answer).
  'plugin::branchify.viewer-fast-path',
  'strapi::logger',
  {
    // Responses of 1 KB and more (HTML, /api JSON, the OpenAPI document) in brotli or gzip, as the
    // client accepts. Outside everything that writes a body, errors included; a body that already
    // has a Content-Encoding (the precompressed build files, the player's cached codings) is left
    // alone, as are HEAD and 304; only text types are compressed (not downloads, media or images).
    name: 'strapi::compression',
    config: {
      threshold: COMPRESS_MIN_BYTES,
      filter: isCompressibleType,
      br: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
      gzip: { level: 6 },
      deflate: false,
    },
  },
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
          // Stylesheets from our origin only. Inline styles stay allowed: MUI's emotion writes its
          // rules into <style> elements at run time and React renders style attributes, and the
          // app's index.html is a static file (no per-response nonce to give emotion).
          'style-src': ["'self'", "'unsafe-inline'"],
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
