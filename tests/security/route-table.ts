/**
 * Who may reach each route the server registers. One row per `METHOD path` exactly as registered:
 * the matrix fails for a registered route without a row (a new route must say who may call it) and
 * for a row whose route is gone.
 *
 * - public:   anyone, with or without a token.
 * - user:     any live session (401 without one; a suspended user's token is dead).
 * - verified: a live session with a verified email (403 'Your email address is not verified.').
 * - admin:    admins only (403 'This action is unauthorized.' for everyone else).
 * - strapi:   Strapi's own content API (upload, i18n, email, content-type builder): nobody reaches
 *             it with or without our tokens (401/403/404/405, never a 2xx).
 * - apiToken: the integrator API (/api/branchify): Strapi API tokens only, so every app role,
 *             with or without the app's token, gets Strapi's 401. What each kind of API token
 *             may do is tests/api/integrator-api.test.ts's.
 *
 * `object` names what the route's `:param` is: tenant-owned objects (funnel, video, subscription)
 * are asked for by every creator who does not own them, and by the admin, who must all get a 404
 * and never see the owner's data; `adminSeesAll` marks the routes where an admin may reach any
 * owner's object (the funnel analytics report). `effects` marks a route whose success
 * changes shared state (deletes, cancels, Stripe disconnect, applying an update): the matrix then
 * points allowed callers at an id that does not exist, or, where no id exists, leaves the allowed
 * cell to the functional suite named in `effects` and checks only the refusals.
 */
type Access = 'public' | 'user' | 'verified' | 'admin' | 'strapi' | 'apiToken';
type ObjectKind = 'funnel' | 'video' | 'subscription' | 'user' | 'plan' | 'reference';

export interface RouteRow {
  access: Access;
  object?: ObjectKind;
  /** Success would change shared state; see above. A string names the suite that covers success. */
  effects?: true | string;
  /** An admin may reach any owner's object through this route. */
  adminSeesAll?: true;
}

export const ROUTE_TABLE: Record<string, RouteRow> = {
  // Strapi's own content API: none is routed (upload, email, content-type builder and i18n are
  // not used over /api; tests/security/api-tokens.test.ts probes their paths).

  // Auth
  'GET /api/auth/user': { access: 'user' },
  'POST /api/auth/register': { access: 'public' },
  'POST /api/auth/login': { access: 'public' },
  'POST /api/auth/password/change': { access: 'user' },
  'POST /api/auth/send-verification-email': { access: 'user' },
  'POST /api/auth/password/forgot': { access: 'public' },
  'POST /api/auth/password/reset': { access: 'public' },
  'POST /api/auth/verify-email': { access: 'public' },
  'POST /api/auth/logout': { access: 'public' },
  'POST /api/auth/refresh-token': { access: 'public' },

  // Users (admin)
  'GET /api/admin/users': { access: 'admin' },
  'GET /api/admin/users/:id': { access: 'admin', object: 'user' },
  'POST /api/admin/users': { access: 'admin' },
  'PUT /api/admin/users/:id': { access: 'admin', object: 'user' },
  'DELETE /api/admin/users/:id': { access: 'admin', object: 'user', effects: true },
  'POST /api/admin/users/:id/verify-email': { access: 'admin', object: 'user', effects: true },

  // Plans
  'GET /api/plans': { access: 'public' },
  'GET /api/admin/plans': { access: 'admin' },
  'GET /api/admin/plans/:id': { access: 'admin', object: 'plan' },
  'POST /api/admin/plans': { access: 'admin' },
  'PUT /api/admin/plans/:id': { access: 'admin', object: 'plan' },
  'DELETE /api/admin/plans/:id': { access: 'admin', object: 'plan', effects: true },

  // The signed-in user's billing
  'GET /api/users/subscriptions': { access: 'verified' },
  'POST /api/users/subscriptions': { access: 'verified' },
  'GET /api/users/subscriptions/stripe-integration': { access: 'verified' },
  'POST /api/users/subscriptions/:id/cancel': { access: 'verified', object: 'subscription', effects: true },
  'POST /api/users/subscriptions/:id/resume': { access: 'verified', object: 'subscription', effects: true },
  'POST /api/users/subscriptions/:id/change': { access: 'verified', object: 'subscription' },
  'GET /api/users/subscriptions/:id/invoices': { access: 'verified', object: 'subscription' },
  'POST /api/users/subscriptions/:id/invoices/pay': { access: 'verified', object: 'subscription' },
  'GET /api/users/invoices': { access: 'verified' },
  'GET /api/payment-method': { access: 'verified' },
  'PUT /api/payment-method': { access: 'verified' },

  // Billing (admin)
  'GET /api/admin/subscriptions/users/:userId': { access: 'admin', object: 'user' },
  'GET /api/admin/subscriptions/users/:userId/invoices': { access: 'admin', object: 'user' },
  'POST /api/admin/subscriptions': { access: 'admin' },
  'POST /api/admin/subscriptions/invoices/:subscriptionId/refund': { access: 'admin', object: 'subscription' },
  'POST /api/admin/subscriptions/:id/cancel': { access: 'admin', object: 'subscription' },
  'POST /api/admin/subscriptions/:id/resume': { access: 'admin', object: 'subscription' },
  'POST /api/admin/subscriptions/:id/change': { access: 'admin', object: 'subscription' },
  'GET /api/admin/subscriptions/:id/invoices': { access: 'admin', object: 'subscription' },
  'GET /api/admin/stripe': { access: 'admin' },
  'GET /api/admin/stripe/config': { access: 'admin' },
  'PUT /api/admin/stripe/config': { access: 'admin', effects: 'tests/api/stripe-admin.test.ts' },
  'GET /api/admin/stripe/auth-url': { access: 'admin' },
  'POST /api/admin/stripe/disconnect': { access: 'admin', effects: 'tests/api/stripe-admin.test.ts' },
  'GET /api/stripe/oauth/callback': { access: 'public' },
  'POST /api/stripe/webhook': { access: 'public' },

  // Library and funnels
  'GET /api/videos': { access: 'verified' },
  'POST /api/videos': { access: 'verified' },
  'PUT /api/videos/:id': { access: 'verified', object: 'video' },
  'PUT /api/videos/:id/poster': { access: 'verified', object: 'video' },
  'DELETE /api/videos/:id': { access: 'verified', object: 'video', effects: true },
  'GET /api/videos/:id/captions': { access: 'verified', object: 'video' },
  'POST /api/videos/:id/captions': { access: 'verified', object: 'video' },
  'DELETE /api/videos/:id/captions/:trackId': { access: 'verified', object: 'video', effects: true },
  'GET /api/captions/:key': { access: 'public' },
  'GET /api/funnels': { access: 'verified' },
  'POST /api/funnels': { access: 'verified' },
  'GET /api/funnels/:id': { access: 'verified', object: 'funnel' },
  'PUT /api/funnels/:id': { access: 'verified', object: 'funnel' },
  'DELETE /api/funnels/:id': { access: 'verified', object: 'funnel', effects: true },
  'GET /api/funnels/:id/duplicate': { access: 'verified', object: 'funnel' },
  'GET /api/funnels/:id/export': { access: 'verified', object: 'funnel' },
  'POST /api/funnels/import': { access: 'verified', effects: 'api/funnel-transfer.test.ts' },
  'POST /api/funnels/:id/analytics': { access: 'verified', object: 'funnel', adminSeesAll: true },
  'GET /api/funnels/:id/analytics.csv': { access: 'verified', object: 'funnel', adminSeesAll: true },
  'GET /api/funnels/:reference/player': { access: 'public', object: 'reference' },
  'POST /api/funnels/:reference/views': { access: 'public', object: 'reference' },
  'PUT /api/funnels/:reference/views': { access: 'public', object: 'reference' },
  'POST /api/funnels/:reference/interactions': { access: 'public', object: 'reference' },
  'POST /api/uploads/images': { access: 'verified' },

  // Operations (admin)
  'GET /api/customizations': { access: 'public' },
  'GET /api/admin/customizations': { access: 'admin' },
  'POST /api/admin/customizations': { access: 'admin' },
  'POST /api/admin/customizations/images': { access: 'admin' },
  'POST /api/admin/customizations/email-preview': { access: 'admin' },
  'GET /api/admin/mailer': { access: 'admin' },
  'PUT /api/admin/mailer': { access: 'admin', effects: 'tests/api/mailer.test.ts' },
  'POST /api/admin/mailer/verify': { access: 'admin' },
  'GET /api/admin/webhooks': { access: 'admin' },
  'POST /api/admin/webhooks': { access: 'admin' },
  'GET /api/admin/webhooks/:id': { access: 'admin' },
  'PUT /api/admin/webhooks/:id': { access: 'admin', effects: 'tests/api/webhooks.test.ts' },
  'DELETE /api/admin/webhooks/:id': { access: 'admin', effects: 'tests/api/webhooks.test.ts' },
  'GET /api/admin/webhooks/:id/deliveries': { access: 'admin' },
  'POST /api/admin/webhooks/:id/test': { access: 'admin', effects: 'tests/api/webhooks.test.ts' },
  'POST /api/admin/webhooks/deliveries/:id/resend': { access: 'admin', effects: 'tests/api/webhooks.test.ts' },
  'GET /api/admin/updates/info': { access: 'admin' },
  'GET /api/admin/updates/is-token-registered': { access: 'admin' },
  'POST /api/admin/updates/save-license-key': { access: 'admin', effects: 'tests/api/updates.test.ts' },
  'POST /api/admin/updates/download': { access: 'admin', effects: 'tests/api/updates.test.ts' },
  'POST /api/admin/updates/apply': { access: 'admin', effects: 'tests/api/updates.test.ts' },
  'POST /api/admin/updates/update-app': { access: 'admin', effects: 'tests/api/updates.test.ts' },
  'GET /api/setup': { access: 'public' },
  'GET /api/admin/setup': { access: 'admin' },
  'POST /api/admin/setup/dismiss': { access: 'admin', effects: 'tests/api/plans-setup.test.ts' },
  'GET /api/admin/operations/load': { access: 'admin' },
  'POST /api/admin/operations/load/reset': { access: 'admin', effects: 'tests/security/request-budget.test.ts' },
  'POST /api/admin/operations/collect-images': { access: 'admin', effects: 'tests/api/funnel-transfer.test.ts' },

  // The integrator API (Strapi's generated REST API, Strapi API tokens)
  'GET /api/branchify/openapi.json': { access: 'public' },
  'GET /api/branchify/plans': { access: 'apiToken' },
  'GET /api/branchify/plans/:id': { access: 'apiToken' },
  'GET /api/branchify/funnels': { access: 'apiToken' },
  'GET /api/branchify/funnels/:id': { access: 'apiToken' },
  'GET /api/branchify/funnels/:id/export': { access: 'apiToken' },
  'POST /api/branchify/funnels/import': { access: 'apiToken' },
  'GET /api/branchify/videos': { access: 'apiToken' },
  'GET /api/branchify/videos/:id': { access: 'apiToken' },
  'GET /api/branchify/users': { access: 'apiToken' },
  'GET /api/branchify/users/:id': { access: 'apiToken' },
  'GET /api/branchify/subscriptions': { access: 'apiToken' },
  'GET /api/branchify/subscriptions/:id': { access: 'apiToken' },
  'POST /api/branchify/subscriptions': { access: 'apiToken' },
  'PUT /api/branchify/subscriptions/:id': { access: 'apiToken' },
  'POST /api/branchify/subscriptions/:id/cancel': { access: 'apiToken' },
  'POST /api/branchify/subscriptions/:id/resume': { access: 'apiToken' },
};
