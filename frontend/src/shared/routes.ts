/**
 * The named routes (navigation targets), and which paths are public. Code
 * navigates by name so a path lives in one place.
 */
export const ROUTES = {
  UserLogin: '/login',
  UserRegister: '/register',
  EmailVerify: '/email-verify',
  VerifyNotice: '/verify-notice',
  EmailVerified: '/account-verified',
  ForgotPassword: '/forgot-password',
  ResendPasswordResetLink: '/resend-password-reset-link',
  PasswordReset: '/password-reset',
  FunnelsDashboard: '/funnels',
  FunnelEditor: (id: number | string) => `/funnels/${id}/edit`,
  FunnelPreview: (id: number | string) => `/funnels/${id}`,
  Library: '/library',
  UserSettings: '/settings',
  SelectSubscriptionPlan: '/settings/select-plan',
  PayOutstandingInvoice: '/invoices/pay',
  PendingSubscription: '/settings/subscriptions/pending',
  UsersList: '/admin/users',
  Player: (identifier: string) => `/player/${identifier}`,
} as const;

const PUBLIC_PATHS = [
  ROUTES.UserRegister,
  ROUTES.UserLogin,
  ROUTES.EmailVerify,
  ROUTES.VerifyNotice,
  ROUTES.EmailVerified,
  ROUTES.ForgotPassword,
  ROUTES.ResendPasswordResetLink,
  ROUTES.PasswordReset,
] as const;

/** Routes a signed-in user may still open (guard step 2's exceptions). */
export const SIGNED_IN_ALLOWED = [ROUTES.EmailVerify, ROUTES.VerifyNotice, ROUTES.EmailVerified, ROUTES.SelectSubscriptionPlan] as const;

export const isPublicPath = (path: string): boolean => (PUBLIC_PATHS as readonly string[]).includes(path);
export const isAdminPath = (path: string): boolean => path === '/admin' || path.startsWith('/admin/');
