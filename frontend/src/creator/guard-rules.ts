import { ROUTES, SIGNED_IN_ALLOWED, isAdminPath, isPublicPath } from '../shared/routes';
import type { SubscriptionResource, UserResource } from '@branchify/shared';

const VERIFY_PAGES: readonly string[] = [ROUTES.EmailVerify, ROUTES.VerifyNotice, ROUTES.EmailVerified];

/**
 * The routing guard, in its order:
 * 1. unauthenticated on a non-public route → login;
 * 2. authenticated on a public route → the funnels dashboard (except EmailVerify, VerifyNotice,
 *    EmailVerified and SelectSubscriptionPlan);
 * 3. unverified email → verify-notice, or email-verify when the query has id, hash and expires;
 * 4. non-admin on an admin route → the dashboard.
 * Returns where to go instead, or null to stay.
 */
export const guardRedirect = (path: string, search: string, user: UserResource | null): string | null => {
  const publicRoute = isPublicPath(path);
  if (!user) return publicRoute ? null : ROUTES.UserLogin;
  if (publicRoute && !(SIGNED_IN_ALLOWED as readonly string[]).includes(path)) return ROUTES.FunnelsDashboard;
  if (!user.email_verified_at && !VERIFY_PAGES.includes(path)) {
    const q = new URLSearchParams(search);
    return q.get('id') && q.get('hash') && q.get('expires') ? `${ROUTES.EmailVerify}${search}` : ROUTES.VerifyNotice;
  }
  if (!user.is_admin && isAdminPath(path)) return ROUTES.FunnelsDashboard;
  return null;
};

/**
 * After login: admin → UsersList; unverified → VerifyNotice; no subscription →
 * SelectSubscriptionPlan; payment_required/failed_renewal → PayOutstandingInvoice; pending →
 * PendingSubscription; canceled in the past or any other non-active status → SelectSubscriptionPlan;
 * otherwise (canceled within the grace period too) → FunnelsDashboard.
 */
export const afterLoginRoute = (user: UserResource, subscription: SubscriptionResource | null, now: Date = new Date()): string => {
  if (user.is_admin) return ROUTES.UsersList;
  if (!user.email_verified_at) return ROUTES.VerifyNotice;
  if (!subscription) return ROUTES.SelectSubscriptionPlan;
  switch (subscription.status) {
    case 'payment_required':
    case 'failed_renewal':
      return ROUTES.PayOutstandingInvoice;
    case 'pending':
      return ROUTES.PendingSubscription;
    case 'active':
      return ROUTES.FunnelsDashboard;
    case 'canceled':
      return subscription.canceled_at && new Date(subscription.canceled_at).getTime() > now.getTime() ? ROUTES.FunnelsDashboard : ROUTES.SelectSubscriptionPlan;
    default:
      return ROUTES.SelectSubscriptionPlan;
  }
};
