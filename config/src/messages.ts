/**
 * The product's texts (spec sections 4, 5 and 8), defined once. Server and browser import them
 * from here; no other file spells one of them out.
 */
export const MESSAGES = {
  // Generic
  unauthenticated: 'Unauthenticated.',
  unauthorized: 'This action is unauthorized.',
  genericFailure: 'An Error Occurred',
  notFound: 'The requested resource could not be found.',
  routeNotFound: 'This API route does not exist.',
  serverError: 'Something went wrong on our side. Please try again in a moment.',
  validationFailed: 'The given data was invalid.',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  malformedBody: 'The request body is not valid JSON.',

  // Auth
  accountCreated: 'Account created successfully',
  welcomeBack: 'Welcome back!',
  verificationLinkSent: 'Verification link sent',
  passwordResetLinkSent: 'Password Reset Link Sent',
  passwordUpdated: 'Password Updated successfully',
  accountVerified: 'Account successfully verified',
  passwordChanged: 'Password changed successfully',
  loggedOut: 'Logged out successfully',
  tokenRefreshed: 'Token refreshed',
  invalidCredentials: 'These credentials do not match our records.',
  accountSuspended: 'Your account has been suspended. Please contact support.',
  emailNotVerified: 'Your email address is not verified.',
  emailAlreadyVerified: 'Your email address is already verified.',
  invalidVerificationLink: 'This verification link is invalid or has expired. Please request a new one.',
  invalidResetToken: 'This password reset token is invalid or has expired.',
  currentPasswordIncorrect: 'The current password is incorrect.',
  emailTaken: 'The email has already been taken.',

  // Users (admin)
  userUpdated: 'User was updated successfully',
  userCreated: 'User created successfully',
  userDeleted: 'User deleted successfully',
  userSuspended: 'User suspended successfully',
  userReactivated: 'User reactivated successfully',
  cannotDeleteSelf: 'You cannot delete your own admin account.',
  adminCannotBeSuspended: 'Admin users cannot be suspended.',
  adminRoleReadOnly: 'Admin role is assigned during initial user creation and cannot be modified afterward.',

  // Subscriptions and billing
  subscriptionCreated: 'Subscription created successfully',
  subscriptionPlanAdded: 'Subscription plan added successfully',
  subscriptionCancelled: 'Subscription cancelled successfully',
  subscriptionResumed: 'Subscription resumed successfully',
  subscriptionPlanChanged: 'Subscription plan changed successfully',
  invoicePaid: 'Invoice paid successfully. Your subscription is now active.',
  invoiceRefunded: 'Invoice refunded successfully',
  paymentDeclined: 'Your payment was declined. Please add a new payment method.',
  adminNoSubscriptions: "Admin accounts don't support subscriptions.",
  selfManagedPlan:
    'Self-managed plans cannot be added through this interface. You should use our API to create the subscription for this user.',
  onlyPlatformManagedChange: 'Only platform-managed subscriptions can be changed through this interface.',
  noActiveSubscriptionToCancel: "This user doesn't have an active subscription to cancel.",
  cannotCancelHere:
    'We are not able to cancel this subscription from here. You should use our API to update the subscription status to canceled.',
  cannotResumeHere:
    'We are not able to resume this subscription from here. You should use our API to update the subscription status to active.',
  onlyCanceledResumable: 'Only canceled subscriptions can be resumed.',
  refundExceedsAmount: 'Refund amount cannot exceed the invoice amount.',
  alreadyRefunded: 'This invoice has already been refunded.',
  invoiceMayBePending: 'This invoice may still be pending.',
  cardAdded: 'Card added successfully.',
  stripeCredentialsUpdated: 'Stripe Credentials updated successfully',

  planCreated: 'Plan created successfully',
  planUpdated: 'Plan updated successfully',
  planDeleted: 'Plan deleted successfully',
  planHasSubscribers: 'This plan has subscribers. Deactivate it instead of deleting it.',
  planNotAvailable: 'The selected plan is not available.',
  samePlan: 'The new plan must be different from the current plan.',
  alreadySubscribed: 'You already have an active subscription. Change your plan instead.',
  paymentMethodRequired: 'Please add a payment method first.',
  paymentActionRequired: 'Your bank needs you to confirm this payment.',
  paymentsNotConfigured: 'Payments are not configured yet. Please contact support.',
  paymentProviderUnavailable: 'The payment provider did not respond. Nothing was charged; please try again in a moment.',
  invoiceNotOpen: 'This invoice is not open for payment.',
  refundAmountPositive: 'The refund amount must be greater than 0.',
  cancellationReasonRequired: 'Please give a reason for the cancellation.',
  stripeConnected: 'Stripe account connected successfully',
  stripeDisconnected: 'Stripe account disconnected successfully',
  stripeNotConnected: 'No Stripe account is connected.',
  stripeStateInvalid: 'This Stripe connection link is invalid or has expired. Please start again from the integrations page.',
  webhookSignatureInvalid: 'Invalid Stripe signature.',

  // Plan limits (spec section 5)
  noSubscription: 'No subscription found for this user. Please choose a plan.',
  noActivePlan: "You don't have any active plan. Please choose a plan.",
  upgradeForFunnels: 'Please upgrade your plan to create more funnel.',
  upgradeForVideoSource: 'Please upgrade your plan to use video source.',

  // Content
  funnelSaved: 'Funnel saved successfully',
  funnelUpdated: 'Funnel updated successfully',
  videoAdded: 'Video added successfully',
  videoUpdated: 'Video updated successfully',
  videoDeleted: 'Video deleted',

  // Operations
  transactionalEmailUpdated: 'Transactional email updated successfully',
  transactionalEmailVerified: 'Transactional email settings verified successfully',
  appCustomizationUpdated: 'App customization was updated successfully',
  appUpdated: 'App updated successfully',
  updateDownloaded: 'Update downloaded successfully',
  licenseKeySaved: 'License key saved',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Laravel-style field messages, so every form error reads the same way. */
export const fieldMessages = {
  required: (label: string) => `The ${label} field is required.`,
  email: (label: string) => `The ${label} field must be a valid email address.`,
  min: (label: string, n: number) => `The ${label} field must be at least ${n} characters.`,
  max: (label: string, n: number) => `The ${label} field must not be greater than ${n} characters.`,
  confirmed: (label: string) => `The ${label} field confirmation does not match.`,
  string: (label: string) => `The ${label} field must be a string.`,
  boolean: (label: string) => `The ${label} field must be true or false.`,
  in: (label: string) => `The selected ${label} is invalid.`,
} as const;
