import { SESSION_MESSAGES } from './session';

/**
 * The product's texts, defined once. Server and browser import them
 * from here (the few every page of the web app needs first, from session.ts); no other
 * file spells one of them out.
 */
export const MESSAGES = {
  // Generic
  unauthenticated: SESSION_MESSAGES.unauthenticated,
  unauthorized: 'This action is unauthorized.',
  genericFailure: SESSION_MESSAGES.genericFailure,
  notFound: 'The requested resource could not be found.',
  routeNotFound: 'This API route does not exist.',
  serverError: 'Something went wrong on our side. Please try again in a moment.',
  serviceUnavailable: 'The service is briefly unavailable. Please try again in a moment.',
  validationFailed: 'The given data was invalid.',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  malformedBody: 'The request body is not valid JSON.',
  malformedPath: 'This address is malformed: a percent sign in it does not start a valid escape.',
  nulInPath: 'This address is malformed: it holds a NUL character (%00), which no page or file name has.',
  forbiddenBodyKey: 'The request body uses a key that is not allowed (__proto__ or constructor.prototype).',
  bodyMustBeJson: 'This endpoint takes a JSON body (Content-Type: application/json).',
  bodyMustBeJsonOrFiles: 'This endpoint takes a JSON body, or its files as multipart/form-data.',
  requestTooLarge: 'The request is too large.',
  crossSiteRequest: 'This request came from another site and was refused. Open the app at its own address and try again.',
  cmsRegistrationClosed: 'Creating the first /cms administrator over the web is disabled. Run `npm run create-admin -- --cms` on the server instead.',

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
  accountSuspended: SESSION_MESSAGES.accountSuspended,
  verificationMailUnavailable: 'This server cannot send email yet, so no verification link was sent. Please contact support to have your account verified.',
  emailNotVerified: 'Your email address is not verified.',
  emailAlreadyVerified: 'Your email address is already verified.',
  /** An admin marking an account verified that already is. */
  userAlreadyVerified: "This user's email address is already verified.",
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
  selfManagedPlan: 'Self-managed plans cannot be added through this interface. You should use our API to create the subscription for this user.',
  onlyPlatformManagedChange: 'Only platform-managed subscriptions can be changed through this interface.',
  noActiveSubscriptionToCancel: "This user doesn't have an active subscription to cancel.",
  cannotCancelHere: 'We are not able to cancel this subscription from here. You should use our API to update the subscription status to canceled.',
  cannotResumeHere: 'We are not able to resume this subscription from here. You should use our API to update the subscription status to active.',
  onlyCanceledResumable: 'Only canceled subscriptions can be resumed.',
  deleteBlockedByBilling:
    "We could not cancel this user's subscription with the payment provider, so the account was not deleted. Please try again in a moment.",
  accountBeingDeleted: 'This account is being deleted.',
  onlyCurrentResumable: 'Only your current subscription can be resumed.',
  onlyCurrentChangeable: 'Only your current subscription can be changed.',
  endedByAdministrator: 'This subscription was ended by an administrator. Please contact support.',
  subscriptionEnded: 'This subscription has ended and cannot be resumed. Please choose a plan.',
  funnelsOfflineAtOnce: 'Your live funnels go offline for viewers as soon as you cancel, until you resume or choose a plan.',
  neverPaid: 'This purchase was never paid for, so it cannot be resumed. Please choose a plan.',
  refundExceedsAmount: 'Refund amount cannot exceed the invoice amount.',
  alreadyRefunded: 'This invoice has already been refunded.',
  invoiceMayBePending: 'This invoice may still be pending.',
  cardAdded: 'Card added successfully.',
  // The stripe-card modal's own failures.
  stripeNotInitialized: 'Stripe is not initialized',
  cardElementNotInitialized: 'Card element is not initialized',
  stripeLoadFailed: 'Failed to load Stripe',
  stripeCredentialsUpdated: 'Stripe Credentials updated successfully',

  planCreated: 'Plan created successfully',
  planUpdated: 'Plan updated successfully',
  planDeleted: 'Plan deleted successfully',
  planHasSubscribers: 'This plan has subscribers. Deactivate it instead of deleting it.',
  planNotAvailable: 'The selected plan is not available.',
  /** "Choose a plan" with no plan a user can pick; the branding's support address follows it. */
  noPlansAvailable: 'No plans are available yet. Please contact support.',
  noSupportAddress: 'This site has not published a support address yet: please ask the person who runs it.',
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

  // Plan limits
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
  funnelDeleted: 'Funnel deleted successfully',
  funnelDuplicated: 'Funnel duplicated successfully',
  funnelImported: 'Funnel imported successfully',
  importNotAnExport: 'This file is not a funnel export. Choose a .json file made with Export.',
  importFileRequired: 'Choose the funnel file (.json) to import.',
  importFileNotJson: 'This file is not valid JSON. Choose a .json file made with Export.',
  importVideoNotInLibrary: "must name a video of the file's library",
  tooComplexToCheck: 'This is too large or too complex to check in time. Make it smaller and try again.',
  exportInProgress: 'An export of yours is still being prepared. Wait for it to finish, then try again.',
  allowIndexingLabel: 'Let search engines list this funnel',
  allowIndexingHelp:
    'Off: search engines are asked not to list the player page. Link previews in chats and social posts show the title, description and first poster either way.',
  funnelUnavailable: 'This funnel is not available. It may have been removed, or its owner’s account is inactive.',
  videoInUse: 'This video is used in a funnel. Remove it from the funnel before deleting it.',
  videoNotInLibrary: 'This video is not in your library.',
  invalidVideo: 'invalid video id or url',
  invalidUrl: 'invalid url',
  invalidAdiloUrl: 'Please enter an Adilo watch URL, such as https://adilo.bigcommand.com/watch/AbCdEf12.',
  videoUrlRequired: 'Please enter a video URL or ID.',
  couldntGetPlayer: 'Couldnt get video player',
  providerNotLoaded: 'Video provider not loaded',
  playerLoadFailed: 'Could not load player, try again later',
  vimeoLoadFailed: 'Failed to load vimeo video. This may be due to privacy settings or an invalid ID',
  branchLimitReached:
    'You have reached the maximum number of branches allowed per funnel in your current plan. To add more branches, please upgrade to a higher tier plan with increased limits.',
  textLimitReached:
    'You have reached the maximum number of elements allowed per funnel in your current plan. To add more text elements, please upgrade to a higher tier plan with increased limits.',
  viewNotFound: 'This view does not exist for this funnel.',
  eventVideoNotInFunnel: 'This video is not part of this funnel.',
  /** An interaction or view update without the token its view was started with (or a malformed one). */
  viewTokenInvalid: 'The view token is invalid: send the view_token the view was started with.',
  analyticsRangeTooLong: 'The date range must not be longer than a year.',

  // Operations
  transactionalEmailUpdated: 'Transactional email updated successfully',
  transactionalEmailVerified: 'Transactional email settings verified successfully',
  appCustomizationUpdated: 'App customization was updated successfully',
  appUpdated: 'App updated successfully',
  updateDownloaded: 'Update downloaded successfully',
  licenseKeySaved: 'License key saved',
  invalidFileType: 'invalid file type, please upload',
  branchImageRequired: 'Please choose an image to upload.',
  captionFileRequired: 'Please choose one caption file (.vtt or .srt) to upload.',
  captionFileType: 'Caption files must be WebVTT (.vtt) or SubRip (.srt).',
  captionTrackAdded: 'Caption track added',
  captionTrackDeleted: 'Caption track deleted',
  captionsOff: 'Off',
  captionLanguageInvalid: 'The language must be a language code such as en, fr or pt-BR.',
  imageRequired: 'Please choose an image to upload (app_logo or app_favicon).',
  imageTooManyPixels: 'Images must be at most 6000 pixels wide and high, and 24 megapixels in all.',
  oneImagePerField: 'Please choose one image per field.',
  unsafeSvg: 'This SVG could not be made safe. Please upload a plain SVG or a PNG, JPG or WEBP image.',
  mailerNotConfigured: 'Transactional email is not configured yet. Save the SMTP settings first.',
  mailerPasswordRequired: 'The password field is required.',
  licenseKeyRequired: 'A license key is required before updating.',
  updatesNotConfigured: 'Updates are not configured on this server. Set UPDATE_FEED_URL and UPDATE_PUBLIC_KEY, then restart.',
  updateFeedUnavailable: 'The update server could not be reached. Please try again later.',
  updateFeedRejected: 'The update server refused this license key.',
  alreadyUpToDate: 'The application is already up to date.',
  updateVerificationFailed: 'The update package failed its integrity check and was discarded. Nothing was changed.',
  updateNotDownloaded: 'There is no downloaded update to apply. Download the update first.',
  updateInProgress: 'An update is already in progress. Please wait for it to finish.',
  updateApplyFailed: 'The update could not be applied. Nothing was changed.',
  userAlreadySubscribed: 'This user already has a subscription. Change their plan instead.',

  // The integrator API (/api/branchify): self-managed subscriptions only
  platformPlanViaIntegratorApi: 'Platform-managed plans are paid through the app. Choose a self-managed plan, or let the user subscribe in the app.',
  onlySelfManagedChange: 'Only self-managed subscriptions can be changed through the API. Platform-managed subscriptions are changed in the app.',
  onlySelfManagedCancel: 'Only self-managed subscriptions can be cancelled through the API. Platform-managed subscriptions are cancelled in the app.',
  onlySelfManagedResume: 'Only self-managed subscriptions can be resumed through the API. Platform-managed subscriptions are resumed in the app.',
  onlyUsersCurrentChangeable: "Only the user's current subscription can be changed.",
  onlyUsersCurrentResumable: "Only the user's current subscription can be resumed.",
  resumeBeforeChange: 'This subscription is canceled. Resume it before changing it.',
  subscriptionEndedByReplacement: 'This subscription was replaced by another one and cannot be resumed. Create a new subscription instead.',
  integratorUserNotFound: 'The selected user does not exist.',
  integratorUpdateNeedsOneChange: 'Send one change: a plan_id, a status (active or canceled), or a renews_at.',

  // Admin users: what an edit cannot change
  statusReadOnlyInEdit: 'The status changes only by suspending or reactivating the user, not in an edit.',
  userIdMismatch: 'The id in the body must be the id of the user being edited.',

  // Admin subscriptions: the blue note of the add-or-change modal for a plan that is not free
  adminPaidPlanNote:
    'This plan requires payment. The user may need to add a payment method when they log in to their account. If they already have a payment method attached, they will be billed automatically.',

  planNeedsStripe: "Stripe is not connected yet: users can't pay for paid plans until you connect it.",
  planStripeRefused: 'Stripe refuses the saved secret key: paid plans are not offered to users until you save keys Stripe accepts.',
  planStripeUnreachable: 'Stripe could not be reached to check the saved keys: paid plans are not offered to users until it answers.',
  planStripeKeysMismatch:
    'The saved secret and publishable keys are not both test keys or both live keys: paid plans are not offered to users until they match.',
  stripeSecretRefused: 'Stripe refused this secret key. Copy it again from your Stripe dashboard.',
  stripeKeysMismatch: 'The secret key and the publishable key must both be test keys or both be live keys.',
  stripeUnreachableOnSave: 'Stripe could not be reached to check these keys, so they were not saved. Please try again.',
  setupIncomplete: 'Finish every setup step before dismissing the checklist.',
  setupDismissed: 'Setup checklist dismissed',

  // Admin settings screens
  maskedSecretChanged: 'This field shows the saved value masked. Type the whole new value, or leave the masked value as it is to keep the saved one.',
  stripeConnectDenied: 'The Stripe connection was cancelled.',
  stripeConnectFailed: 'Stripe could not connect the account. Please try again.',
  stripeConnectNeedsCredentials: 'Save the Stripe credentials before connecting an account.',
  updateApplied: 'The update is installed. Restart the application to run the new version.',
  updateWarning:
    "Before updating, please ensure you haven't made any manual changes to the application outside of the update system. If you have modified files directly, please do not use this update function as it may overwrite your changes.",

  // Layout
  timelineNeedsWiderScreen: 'The timeline editor needs a wider screen. Open this funnel on a tablet or a computer to place and time elements on its videos.',
  editorFunnelMissing: 'This funnel does not exist, or it is not yours.',

  // Outgoing webhooks
  webhookCreated: 'Webhook endpoint created. Copy the signing secret now: it is shown only once.',
  webhookUpdated: 'Webhook endpoint updated successfully',
  webhookDeleted: 'Webhook endpoint deleted successfully',
  webhookResent: 'The delivery is queued to be sent again.',
  webhookTestQueued: 'A test event is queued for this endpoint.',
  webhookUrlNotHttps: 'The URL must start with https://.',
  webhookUrlInvalid: 'The URL must be a valid https:// address without a user name or password.',
  webhookUrlPrivate: 'This URL points to a private, loopback or otherwise internal address. Webhooks can only be sent to public addresses.',
  webhookUrlUnresolvable: 'The host name of this URL could not be resolved.',
  webhookEventsRequired: 'Choose at least one event.',
  webhookDeliverySending: 'This delivery is being sent right now. Try again in a moment.',
  webhookEndpointDisabled: 'The endpoint is disabled.',
  webhookEndpointDeleted: 'The endpoint was deleted.',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Spec messages with a value in them. */
export const messageTemplates = {
  /** The editor's offer to go back to where this creator left a video's timeline. */
  editorResumeOffer: (video: string, at: string) => `Do you want to resume? You left '${video}' at ${at}.`,
  /** An image over its upload limit: the sentence names the limit that applies (branch images, logo, favicon). */
  imageTooLarge: (kb: number) => `File size must be lower than ${kb}kb`,
  importFileTooLarge: (mb: number) => `The file must be at most ${mb} MB.`,
  captionFileTooLarge: (kb: number) => `The caption file must be at most ${kb} KB.`,
  captionTracksFull: (max: number) => `A video holds at most ${max} caption tracks. Delete one before adding another.`,
  captionLanguageTaken: (language: string) => `This video already has a caption track in ${language}. Delete it first to replace it.`,
  importNewerVersion: (version: number, newest: number) =>
    `This file was exported by a newer version of the app (format ${version}; this app reads up to format ${newest}). Update the app, then import the file again.`,
  importImageMissing: (path: string) => `The funnel shows the image ${path}, which is not embedded in the file.`,
  /** An import refused: where in the file, and what is wrong there. */
  importInvalid: (path: string, message: string) => `This file cannot be imported: ${path === '_' ? '' : `${path}: `}${message}`,
  providerNotInPlan: (provider: string) =>
    `The ${provider} video provider is not available in your current plan. Upgrade to a plan that includes ${provider} integration.`,
  videoInUseBy: (titles: readonly string[]) =>
    `This video is used in ${titles.length === 1 ? 'the funnel' : `${titles.length} funnels:`} ${titles.map((t) => `'${t}'`).join(', ')}. Remove it from ${titles.length === 1 ? 'that funnel' : 'those funnels'} before deleting it.`,
  /** An amount with more decimals than its currency is charged in (`label`: 'price field', 'refund amount'). */
  tooManyDecimals: (label: string, currency: string, decimals: number) =>
    decimals === 0
      ? `The ${label} must be a whole number of ${currency.toUpperCase()}.`
      : `The ${label} can have at most ${decimals} decimal places in ${currency.toUpperCase()}.`,
  /** X and Y are formatted amounts ('$5.00', '$19.00'). */
  partialRefund: (amount: string, total: string) => `You are issuing a partial refund of ${amount} out of the total ${total}.`,
  /** A mail template body without a placeholder it cannot work without (`{{reset_link}}`). */
  templateMissingRequired: (placeholders: readonly string[]) =>
    `The body must contain ${placeholders.join(' and ')}: this mail does not work without ${placeholders.length === 1 ? 'it' : 'them'}.`,
  refundExceedsRemaining: (left: string) => `Refund amount cannot exceed the ${left} not yet refunded.`,
  funnelsOfflineAtPeriodEnd: (date: string) =>
    `Your live funnels stay online until ${date}, the end of the billing period; then they go offline for viewers until you resume or choose a plan.`,
  funnelsGoOffline: (date: string) => `Your subscription is canceled: your live funnels go offline for viewers on ${date}.`,
  funnelsOffline: (date: string) => `Your subscription has ended: your funnels are offline for viewers since ${date}.`,
  /** A shared funnel link's description when the funnel has none. */
  funnelPreviewDescription: (appName: string) => `An interactive video on ${appName}: watch and choose where it goes next.`,
  /** The alt text of a shared funnel link's preview image (the first video's poster). */
  funnelPreviewImageAlt: (videoTitle: string) => `Poster frame of ${videoTitle}`,
  resumeInstead: (plan: string) => `You cancelled your ${plan} subscription: you can resume it instead of choosing a new plan.`,
} as const;

/** Laravel-style field messages, so every form error reads the same way. */
export const fieldMessages = {
  required: (label: string) => `The ${label} field is required.`,
  email: (label: string) => `The ${label} field must be a valid email address.`,
  min: (label: string, n: number) => `The ${label} field must be at least ${n} characters.`,
  max: (label: string, n: number) => `The ${label} field must not be greater than ${n} characters.`,
  maxBytes: (label: string, n: number) =>
    `The ${label} field must not be greater than ${n} bytes (letters with accents count as 2, other scripts, symbols and emoji as 3 or 4).`,
  confirmed: (label: string) => `The ${label} field confirmation does not match.`,
  string: (label: string) => `The ${label} field must be a string.`,
  boolean: (label: string) => `The ${label} field must be true or false.`,
  in: (label: string) => `The selected ${label} is invalid.`,
} as const;
