import type { Core } from '@strapi/strapi';

export type Strapi = Core.Strapi;

/** The knex transaction Strapi hands to `strapi.db.transaction` callbacks. */
export type Transaction = Parameters<Parameters<Strapi['db']['transaction']>[0]>[0]['trx'];

/** Content-type uids of this plugin, so queries never spell a uid by hand. */
export const UID = {
  user: 'plugin::users-permissions.user',
  role: 'plugin::users-permissions.role',
  plan: 'plugin::branchify.plan',
  subscription: 'plugin::branchify.subscription',
  invoice: 'plugin::branchify.invoice',
  video: 'plugin::branchify.video',
  funnel: 'plugin::branchify.funnel',
  customization: 'plugin::branchify.customization',
  refreshToken: 'plugin::branchify.refresh-token',
  passwordReset: 'plugin::branchify.password-reset',
  rateLimit: 'plugin::branchify.rate-limit',
  cacheVersion: 'plugin::branchify.cache-version',
  stripeSetting: 'plugin::branchify.stripe-setting',
  stripeEvent: 'plugin::branchify.stripe-event',
  funnelVideo: 'plugin::branchify.funnel-video',
  creatorImage: 'plugin::branchify.creator-image',
  funnelView: 'plugin::branchify.funnel-view',
  funnelInteraction: 'plugin::branchify.funnel-interaction',
  mailerSetting: 'plugin::branchify.mailer-setting',
  mailOutbox: 'plugin::branchify.mail-outbox',
  updateState: 'plugin::branchify.update-state',
  webhookEndpoint: 'plugin::branchify.webhook-endpoint',
  webhookDelivery: 'plugin::branchify.webhook-delivery',
  webhookAttempt: 'plugin::branchify.webhook-attempt',
} as const;

/** The query engine for one of our uids (typed loosely: our schemas are declared in code). */
export const query = (strapi: Strapi, uid: (typeof UID)[keyof typeof UID]) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- our uids are declared in code, not in Strapi's generated types
  strapi.db.query(uid as any);
