import plan, { type PlanRow } from './plan';
import subscription, { type SubscriptionRow } from './subscription';
import invoice, { type InvoiceRow } from './invoice';
import video, { type VideoRow } from './video';
import funnel, { type FunnelRow } from './funnel';
import customization, { type CustomizationRow } from './customization';
import mailerSetting, { type MailerSettingsRow } from './mailer-setting';
import stripeSetting, { type StripeSettingsRow } from './stripe-setting';
import updateState, { type UpdateStateRow } from './update-state';
import refreshToken, { type RefreshTokenRow } from './refresh-token';
import passwordReset, { type PasswordResetRow } from './password-reset';
import installClaim from './install-claim';
import cacheVersion, { type CacheVersionRow } from './cache-version';
import rateLimit, { type RateLimitRow } from './rate-limit';
import stripeEvent, { type StripeEventRow } from './stripe-event';
import mailOutbox, { type OutboxRow } from './mail-outbox';
import webhookEndpoint, { type EndpointRow } from './webhook-endpoint';
import webhookDelivery, { type WebhookDeliveryRow } from './webhook-delivery';
import webhookAttempt, { type AttemptRow } from './webhook-attempt';
import funnelVideo, { type FunnelVideoRow } from './funnel-video';
import creatorImage, { type CreatorImageRow } from './creator-image';
import captionTrack, { type CaptionTrackRow } from './caption-track';
import funnelView, { type FunnelViewRow } from './funnel-view';
import funnelInteraction, { type FunnelInteractionRow } from './funnel-interaction';
import analyticsDaily from './analytics-daily';
import analyticsMark from './analytics-mark';
import setting, { type SettingRow } from './setting';
import stripeConnectState, { type ConnectStateRow } from './stripe-connect-state';
import type { RoleRow, UserRow } from './users-permissions';
import type { UID } from './uids';

/** Every server-side entity, plus the bookkeeping tables later domains use: one folder each (schema.ts, and index.ts with its row type). */
export default {
  plan,
  subscription,
  invoice,
  video,
  funnel,
  customization,
  'mailer-setting': mailerSetting,
  'stripe-setting': stripeSetting,
  'update-state': updateState,
  'refresh-token': refreshToken,
  'password-reset': passwordReset,
  'install-claim': installClaim,
  'cache-version': cacheVersion,
  'rate-limit': rateLimit,
  'stripe-event': stripeEvent,
  'mail-outbox': mailOutbox,
  'webhook-endpoint': webhookEndpoint,
  'webhook-delivery': webhookDelivery,
  'webhook-attempt': webhookAttempt,
  'funnel-video': funnelVideo,
  'creator-image': creatorImage,
  'caption-track': captionTrack,
  'funnel-view': funnelView,
  'funnel-interaction': funnelInteraction,
  'analytics-daily': analyticsDaily,
  'analytics-mark': analyticsMark,
  setting,
  'stripe-connect-state': stripeConnectState,
};

/** The row the query engine answers for each uid key (every key of UID has one). */
interface RowsByKey {
  user: UserRow;
  role: RoleRow;
  plan: PlanRow;
  subscription: SubscriptionRow;
  invoice: InvoiceRow;
  video: VideoRow;
  funnel: FunnelRow;
  customization: CustomizationRow;
  refreshToken: RefreshTokenRow;
  passwordReset: PasswordResetRow;
  rateLimit: RateLimitRow;
  cacheVersion: CacheVersionRow;
  stripeSetting: StripeSettingsRow;
  stripeEvent: StripeEventRow;
  funnelVideo: FunnelVideoRow;
  creatorImage: CreatorImageRow;
  captionTrack: CaptionTrackRow;
  funnelView: FunnelViewRow;
  funnelInteraction: FunnelInteractionRow;
  mailerSetting: MailerSettingsRow;
  mailOutbox: OutboxRow;
  updateState: UpdateStateRow;
  webhookEndpoint: EndpointRow;
  webhookDelivery: WebhookDeliveryRow;
  webhookAttempt: AttemptRow;
  setting: SettingRow;
  stripeConnectState: ConnectStateRow;
}

/** Uid to row type. */
export type Rows = { [K in keyof typeof UID as (typeof UID)[K]]: RowsByKey[K] };
