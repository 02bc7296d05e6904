import { ADMIN, route } from '../routes/define';

const USER_AREA = { verified: true };

export default [
  // The signed-in user
  route('GET', '/users/subscriptions', 'subscriptions.current', { auth: USER_AREA }),
  route('POST', '/users/subscriptions', 'subscriptions.create', { auth: USER_AREA }),
  route('GET', '/users/subscriptions/stripe-integration', 'subscriptions.stripeIntegration', { auth: USER_AREA }),
  route('POST', '/users/subscriptions/:id/cancel', 'subscriptions.cancel', { auth: USER_AREA }),
  route('POST', '/users/subscriptions/:id/resume', 'subscriptions.resume', { auth: USER_AREA }),
  route('POST', '/users/subscriptions/:id/change', 'subscriptions.change', { auth: USER_AREA }),
  route('GET', '/users/subscriptions/:id/invoices', 'subscriptions.invoices', { auth: USER_AREA }),
  route('GET', '/users/invoices', 'subscriptions.allInvoices', { auth: USER_AREA }),
  route('POST', '/users/subscriptions/:id/invoices/pay', 'subscriptions.payInvoice', { auth: USER_AREA }),
  route('GET', '/payment-method', 'subscriptions.paymentMethod', { auth: USER_AREA }),
  route('PUT', '/payment-method', 'subscriptions.setPaymentMethod', { auth: USER_AREA }),

  // Admin
  route('GET', '/admin/subscriptions/users/:userId', 'admin-subscriptions.forUser', { auth: ADMIN }),
  route('GET', '/admin/subscriptions/users/:userId/invoices', 'admin-subscriptions.invoicesOfUser', { auth: ADMIN }),
  route('POST', '/admin/subscriptions', 'admin-subscriptions.create', { auth: ADMIN }),
  route('POST', '/admin/subscriptions/invoices/:subscriptionId/refund', 'admin-subscriptions.refund', { auth: ADMIN }),
  route('POST', '/admin/subscriptions/:id/cancel', 'admin-subscriptions.cancel', { auth: ADMIN }),
  route('POST', '/admin/subscriptions/:id/resume', 'admin-subscriptions.resume', { auth: ADMIN }),
  route('POST', '/admin/subscriptions/:id/change', 'admin-subscriptions.change', { auth: ADMIN }),
  route('GET', '/admin/subscriptions/:id/invoices', 'admin-subscriptions.invoices', { auth: ADMIN }),
  route('GET', '/admin/stripe', 'stripe-admin.show', { auth: ADMIN }),
  route('GET', '/admin/stripe/config', 'stripe-admin.config', { auth: ADMIN }),
  route('PUT', '/admin/stripe/config', 'stripe-admin.updateConfig', { auth: ADMIN }),
  route('GET', '/admin/stripe/auth-url', 'stripe-admin.authUrl', { auth: ADMIN }),
  route('POST', '/admin/stripe/disconnect', 'stripe-admin.disconnect', { auth: ADMIN }),

  // Stripe itself
  route('GET', '/stripe/oauth/callback', 'stripe-admin.callback', { rateLimit: { name: 'stripe-oauth' } }),
  // Verified by its signature over the exact bytes Stripe sent.
  route('POST', '/stripe/webhook', 'stripe-webhooks.receive', { rawBody: true }),
];
