import type authService from '../auth/service';
import type linksService from '../auth/links';
import type tokensService from '../auth/tokens';
import type rateLimitService from '../rate-limit/service';
import type notificationsService from '../users/notifications';
import type planLimitsService from '../plans/limits';
import type plansService from '../plans/service';
import type billingService from '../billing/service';
import type billingSyncService from '../billing/sync';
import type stripeSettingsService from '../billing/settings';
import type stripeWebhooksService from '../billing/webhooks';
import type presenterService from '../users/presenter';
import type usersService from '../users/service';
import type accountRemovalService from '../users/removal';
import type videosService from '../videos/service';
import type funnelsService from '../funnels/service';
import type playerPayloadService from '../funnels/player-payload';
import type analyticsService from '../analytics/service';
import type customizationService from '../customization/service';
import type creatorImagesService from '../uploads/service';
import type mailerSettingsService from '../mailer/settings';
import type mailOutboxService from '../mailer/outbox';
import type updatesService from '../updates/service';
import type demoSeedService from '../seed/demo';
import type cacheVersionsService from '../operations/cache-versions';
import type lifecycleService from '../operations/shutdown';
import type { Strapi } from './strapi';

/** Every service of the plugin by name, with its type, so callers get one typed accessor. */
export interface Services {
  auth: ReturnType<typeof authService>;
  links: ReturnType<typeof linksService>;
  tokens: ReturnType<typeof tokensService>;
  rateLimit: ReturnType<typeof rateLimitService>;
  notifications: ReturnType<typeof notificationsService>;
  users: ReturnType<typeof usersService>;
  'account-removal': ReturnType<typeof accountRemovalService>;
  'users-presenter': ReturnType<typeof presenterService>;
  'plan-limits': ReturnType<typeof planLimitsService>;
  plans: ReturnType<typeof plansService>;
  billing: ReturnType<typeof billingService>;
  'billing-sync': ReturnType<typeof billingSyncService>;
  'stripe-settings': ReturnType<typeof stripeSettingsService>;
  'stripe-webhooks': ReturnType<typeof stripeWebhooksService>;
  videos: ReturnType<typeof videosService>;
  funnels: ReturnType<typeof funnelsService>;
  'player-payload': ReturnType<typeof playerPayloadService>;
  analytics: ReturnType<typeof analyticsService>;
  customization: ReturnType<typeof customizationService>;
  'creator-images': ReturnType<typeof creatorImagesService>;
  'mailer-settings': ReturnType<typeof mailerSettingsService>;
  'mail-outbox': ReturnType<typeof mailOutboxService>;
  updates: ReturnType<typeof updatesService>;
  'demo-seed': ReturnType<typeof demoSeedService>;
  lifecycle: ReturnType<typeof lifecycleService>;
  'cache-versions': ReturnType<typeof cacheVersionsService>;
}

export const getService = <K extends keyof Services>(strapi: Strapi, name: K): Services[K] => strapi.plugin('branchify').service(name) as Services[K];
