import auth from '../auth/service';
import links from '../auth/links';
import tokens from '../auth/tokens';
import rateLimit from '../rate-limit/service';
import notifications from '../users/notifications';
import planLimits from '../plans/limits';
import plans from '../plans/service';
import planCatalogue from '../plans/catalogue';
import billing from '../billing/service';
import billingSync from '../billing/sync';
import stripeSettings from '../billing/settings';
import stripeEvents from '../billing/stripe-events';
import billingAdministration from '../billing/administration';
import billingPayments from '../billing/payments';
import stripeConnection from '../billing/stripe-connection';
import usersPresenter from '../users/present';
import users from '../users/service';
import accountRemoval from '../users/removal';
import userAdministration from '../users/administration';
import videos from '../videos/service';
import videoLibrary from '../videos/library';
import captions from '../captions/service';
import funnels from '../funnels/service';
import funnelEditing from '../funnels/editing';
import funnelTransfer from '../funnels/transfer';
import playerPayload from '../funnels/player-payload';
import analytics from '../analytics/service';
import analyticsIngest from '../analytics/ingest';
import analyticsReporting from '../analytics/reporting';
import customization from '../customization/service';
import customizationBranding from '../customization/branding';
import creatorImages from '../uploads/service';
import mailerSettings from '../mailer/settings';
import mailOutbox from '../mailer/outbox';
import updates from '../updates/service';
import demoSeed from '../seed/demo';
import webhooks from '../webhooks/service';
import { coreServices } from '../integrator/services';
import integratorSubscriptions from '../integrator/subscriptions';
import cacheVersions from '../operations/cache-versions';
import lifecycle from '../operations/shutdown';

export default {
  auth,
  links,
  tokens,
  rateLimit,
  notifications,
  users,
  'account-removal': accountRemoval,
  'user-administration': userAdministration,
  'users-presenter': usersPresenter,
  'plan-limits': planLimits,
  plans,
  'plan-catalogue': planCatalogue,
  billing,
  'billing-sync': billingSync,
  'stripe-settings': stripeSettings,
  'stripe-webhooks': stripeEvents,
  'billing-administration': billingAdministration,
  'billing-payments': billingPayments,
  'stripe-connection': stripeConnection,
  videos,
  'video-library': videoLibrary,
  captions,
  funnels,
  'funnel-editing': funnelEditing,
  'funnel-transfer': funnelTransfer,
  'player-payload': playerPayload,
  analytics,
  'analytics-ingest': analyticsIngest,
  'analytics-reporting': analyticsReporting,
  customization,
  'customization-branding': customizationBranding,
  'creator-images': creatorImages,
  'mailer-settings': mailerSettings,
  'mail-outbox': mailOutbox,
  updates,
  'demo-seed': demoSeed,
  webhooks,
  ...coreServices,
  'integrator-subscriptions': integratorSubscriptions,
  lifecycle,
  'cache-versions': cacheVersions,
};
