import { BRANCH_TARGET_MAX, ID_MAX, MANAGED_BY, PAYMENT_SCHEDULES, SUBSCRIPTION_STATUSES, VIDEO_PROVIDERS } from '@branchify/shared';
import { INTERACTION_TYPES } from '../analytics/validators';
import { CANCELED_BY } from '../billing/records';
import { belongsTo, belongsToUser, bigint, bool, date, decimal, defineType, enumeration, int, json, money, str, text, textOf } from './define';

const PLAN = 'plugin::branchify.plan';
const SUBSCRIPTION = 'plugin::branchify.subscription';
const VIDEO = 'plugin::branchify.video';
const FUNNEL = 'plugin::branchify.funnel';
/** A reference to the funnel in `funnel_id` (analytics rows). */
const ofFunnel = () => belongsTo(FUNNEL, 'funnel_id');

/** Every server-side entity, plus the bookkeeping tables later domains use. */
export default {
  plan: defineType({
    collectionName: 'branchify_plans',
    singularName: 'plan',
    pluralName: 'plans',
    displayName: 'Plan',
    attributes: {
      name: str({ required: true }),
      description: text(),
      price: str({ required: true, default: '0' }),
      currency: str({ required: true, default: 'usd' }),
      payment_schedule: enumeration(PAYMENT_SCHEDULES, { required: true, default: 'monthly' }),
      managed_by: enumeration(MANAGED_BY, { required: true, default: 'platform' }),
      max_funnel: int(),
      max_branch_per_funnel: int(),
      video_sources: json(),
      is_active: bool(true),
      sort_order: int({ default: 0 }),
      // Private: Strapi's generated REST API (/api/branchify) never shows them.
      stripe_product_id: str({ private: true }),
      stripe_price_id: str({ private: true }),
    },
    indexes: [{ name: 'branchify_plans_active_idx', columns: ['is_active', 'sort_order'] }],
  }),

  subscription: defineType({
    collectionName: 'branchify_subscriptions',
    singularName: 'subscription',
    pluralName: 'subscriptions',
    displayName: 'Subscription',
    attributes: {
      user_id: int({ required: true }),
      plan_id: int({ required: true }),
      user: belongsToUser('user_id'),
      plan: belongsTo(PLAN, 'plan_id'),
      status: enumeration(SUBSCRIPTION_STATUSES, { required: true, default: 'pending' }),
      managed_by: enumeration(MANAGED_BY, { required: true, default: 'platform' }),
      started_at: date(),
      renews_at: date(),
      canceled_at: date(),
      cancel_at_period_end: bool(false),
      cancellation_reason: text(),
      canceled_by: enumeration(CANCELED_BY),
      payment_method_id: str(),
      stripe_subscription_id: str({ private: true }),
      stripe_customer_id: str({ private: true }),
    },
    indexes: [
      { name: 'branchify_subscriptions_user_idx', columns: ['user_id'] },
      { name: 'branchify_subscriptions_stripe_uq', columns: ['stripe_subscription_id'], type: 'unique' },
    ],
  }),

  invoice: defineType({
    collectionName: 'branchify_invoices',
    singularName: 'invoice',
    pluralName: 'invoices',
    displayName: 'Invoice',
    attributes: {
      user_id: int({ required: true }),
      subscription_id: int(),
      user: belongsToUser('user_id'),
      subscription: belongsTo(SUBSCRIPTION, 'subscription_id'),
      /** The plan the invoice was for, kept when the subscription later moves to another plan. */
      plan_id: int(),
      invoice_id: str(),
      number: str(),
      amount: money(),
      amount_refunded: money(),
      currency: str({ default: 'usd' }),
      status: str({ required: true, default: 'draft' }),
      paid_at: date(),
      hosted_invoice_url: text(),
    },
    indexes: [
      { name: 'branchify_invoices_user_idx', columns: ['user_id'] },
      { name: 'branchify_invoices_subscription_idx', columns: ['subscription_id'] },
      { name: 'branchify_invoices_stripe_uq', columns: ['invoice_id'], type: 'unique' },
    ],
  }),

  video: defineType({
    collectionName: 'branchify_videos',
    singularName: 'video',
    pluralName: 'videos',
    displayName: 'Video',
    attributes: {
      owner_id: int({ required: true }),
      owner: belongsToUser('owner_id'),
      title: str({ required: true }),
      size: int({ default: 0 }),
      thumbnail: text(),
      duration: decimal(),
      provider: enumeration(VIDEO_PROVIDERS, { required: true }),
      external_id: str(),
      embed_url: text(),
      source: text(),
      source_url: text(),
    },
    indexes: [{ name: 'branchify_videos_owner_idx', columns: ['owner_id', 'created_at'] }],
  }),

  funnel: defineType({
    collectionName: 'branchify_funnels',
    singularName: 'funnel',
    pluralName: 'funnels',
    displayName: 'Funnel',
    attributes: {
      owner_id: int({ required: true }),
      owner: belongsToUser('owner_id'),
      identifier: str({ required: true }),
      title: str({ required: true }),
      description: text(),
      settings: json(),
      videos: json(),
      version: int({ default: 1 }),
    },
    indexes: [
      { name: 'branchify_funnels_owner_idx', columns: ['owner_id', 'created_at'] },
      { name: 'branchify_funnels_identifier_uq', columns: ['identifier'], type: 'unique' },
    ],
  }),

  customization: defineType({
    kind: 'singleType',
    collectionName: 'branchify_customization',
    singularName: 'customization',
    pluralName: 'customizations',
    displayName: 'App customization',
    attributes: {
      app_name: str(),
      app_description: text(),
      app_logo_url: text(),
      app_favicon_url: text(),
      app_support_url: text(),
      app_color_scheme: json(),
      app_email_templates: json(),
    },
  }),

  'mailer-setting': defineType({
    kind: 'singleType',
    collectionName: 'branchify_mailer_settings',
    singularName: 'mailer-setting',
    pluralName: 'mailer-settings',
    displayName: 'Mailer settings',
    internal: true,
    attributes: {
      host: str(),
      port: int(),
      encryption: str(),
      username: str(),
      password_encrypted: text(),
      from_address: str(),
      from_name: str(),
      verified_at: date(),
    },
  }),

  'stripe-setting': defineType({
    kind: 'singleType',
    collectionName: 'branchify_stripe_settings',
    singularName: 'stripe-setting',
    pluralName: 'stripe-settings',
    displayName: 'Stripe settings',
    internal: true,
    attributes: {
      client_id: str(),
      secret_encrypted: text(),
      publishable_key: str(),
      webhook_secret_encrypted: text(),
      account_id: str(),
      connected_at: date(),
      /** A digest of the secret and publishable keys Stripe last accepted: payments work while they are the keys in use. */
      verified_fingerprint: str(),
    },
  }),

  'update-state': defineType({
    kind: 'singleType',
    collectionName: 'branchify_update_state',
    singularName: 'update-state',
    pluralName: 'update-states',
    displayName: 'Update and license',
    internal: true,
    attributes: {
      license_key_encrypted: text(),
      current_version: str(),
      latest_version: str(),
      checked_at: date(),
      downloaded_version: str(),
      downloaded_path: text(),
      applied_at: date(),
    },
  }),

  'refresh-token': defineType({
    collectionName: 'branchify_refresh_tokens',
    singularName: 'refresh-token',
    pluralName: 'refresh-tokens',
    displayName: 'Refresh token',
    internal: true,
    attributes: {
      user_id: int({ required: true }),
      user: belongsToUser('user_id'),
      token_hash: str({ required: true }),
      family: str({ required: true }),
      expires_at: date(),
      rotated_at: date(),
      revoked_at: date(),
      user_agent: text(),
      ip: str(),
    },
    indexes: [
      { name: 'branchify_refresh_tokens_hash_uq', columns: ['token_hash'], type: 'unique' },
      { name: 'branchify_refresh_tokens_user_idx', columns: ['user_id'] },
      { name: 'branchify_refresh_tokens_family_idx', columns: ['family'] },
    ],
  }),

  'password-reset': defineType({
    collectionName: 'branchify_password_resets',
    singularName: 'password-reset',
    pluralName: 'password-resets',
    displayName: 'Password reset',
    internal: true,
    attributes: {
      user_id: int({ required: true }),
      user: belongsToUser('user_id'),
      token_hash: str({ required: true }),
      expires_at: date(),
      used_at: date(),
    },
    indexes: [
      { name: 'branchify_password_resets_hash_uq', columns: ['token_hash'], type: 'unique' },
      { name: 'branchify_password_resets_user_idx', columns: ['user_id'] },
    ],
  }),

  /** One-time claims of an install (the first administrator): a unique name, inserted once. */
  'install-claim': defineType({
    collectionName: 'branchify_install_claims',
    singularName: 'install-claim',
    pluralName: 'install-claims',
    displayName: 'Install claim',
    internal: true,
    attributes: {
      name: str({ required: true }),
    },
    indexes: [{ name: 'branchify_install_claims_name_uq', columns: ['name'], type: 'unique' }],
  }),

  'cache-version': defineType({
    collectionName: 'branchify_cache_versions',
    singularName: 'cache-version',
    pluralName: 'cache-versions',
    displayName: 'Cache version',
    description: 'Bumped with every write that per-process caches depend on; each process drops its cache when the number moves.',
    internal: true,
    attributes: {
      scope: str({ required: true }),
      version: bigint({ required: true, default: 0 }),
    },
    indexes: [{ name: 'branchify_cache_versions_scope_uq', columns: ['scope'], type: 'unique' }],
  }),

  'rate-limit': defineType({
    collectionName: 'branchify_rate_limits',
    singularName: 'rate-limit',
    pluralName: 'rate-limits',
    displayName: 'Rate limit counter',
    internal: true,
    attributes: {
      bucket: str({ required: true }),
      window_start: bigint({ required: true }),
      hits: int({ required: true, default: 0 }),
    },
    indexes: [{ name: 'branchify_rate_limits_bucket_uq', columns: ['bucket'], type: 'unique' }],
  }),

  'stripe-event': defineType({
    collectionName: 'branchify_stripe_events',
    singularName: 'stripe-event',
    pluralName: 'stripe-events',
    displayName: 'Stripe event',
    internal: true,
    attributes: {
      event_id: str({ required: true }),
      type: str({ required: true }),
      payload: json(),
      status: str({ default: 'received' }),
      processed_at: date(),
      last_error: text(),
    },
    indexes: [{ name: 'branchify_stripe_events_event_uq', columns: ['event_id'], type: 'unique' }],
  }),

  'mail-outbox': defineType({
    collectionName: 'branchify_mail_outbox',
    singularName: 'mail-outbox',
    pluralName: 'mail-outboxes',
    displayName: 'Mail outbox',
    internal: true,
    attributes: {
      to_address: str({ required: true }),
      template: str(),
      subject: text(),
      html: text(),
      text_body: text(),
      status: str({ default: 'queued' }),
      attempts: int({ default: 0 }),
      next_attempt_at: date(),
      sent_at: date(),
      last_error: text(),
    },
    indexes: [{ name: 'branchify_mail_outbox_due_idx', columns: ['status', 'next_attempt_at'] }],
  }),

  /** Outgoing webhook receivers an admin registered; the signing secret is sealed at rest. */
  'webhook-endpoint': defineType({
    collectionName: 'branchify_webhook_endpoints',
    singularName: 'webhook-endpoint',
    pluralName: 'webhook-endpoints',
    displayName: 'Webhook endpoint',
    internal: true,
    attributes: {
      url: text({ required: true }),
      description: str(),
      events: json(),
      secret_encrypted: text({ required: true }),
      enabled: bool(true),
      created_by: int(),
    },
  }),

  /** One event for one endpoint: a DB-backed queue row (claimed by a conditional UPDATE). */
  'webhook-delivery': defineType({
    collectionName: 'branchify_webhook_deliveries',
    singularName: 'webhook-delivery',
    pluralName: 'webhook-deliveries',
    displayName: 'Webhook delivery',
    internal: true,
    attributes: {
      endpoint_id: int({ required: true }),
      event_id: str({ required: true }),
      type: str({ required: true }),
      /** The exact JSON body sent (and signed) on every attempt. */
      payload: text({ required: true }),
      status: str({ default: 'pending' }),
      attempts: int({ default: 0 }),
      /** Attempts allowed so far (a resend grants another round). */
      max_attempts: int({ default: 0 }),
      /** Epoch milliseconds, compared in SQL on both databases. */
      next_attempt_ms: bigint(),
      last_status_code: int(),
      last_error: text(),
      delivered_at: date(),
    },
    indexes: [
      { name: 'branchify_webhook_deliveries_event_uq', columns: ['endpoint_id', 'event_id'], type: 'unique' },
      { name: 'branchify_webhook_deliveries_due_idx', columns: ['status', 'next_attempt_ms'] },
    ],
  }),

  /** Every attempt at a delivery: its HTTP status or error (the delivery log). */
  'webhook-attempt': defineType({
    collectionName: 'branchify_webhook_attempts',
    singularName: 'webhook-attempt',
    pluralName: 'webhook-attempts',
    displayName: 'Webhook attempt',
    internal: true,
    attributes: {
      delivery_id: int({ required: true }),
      attempt: int({ required: true }),
      status_code: int(),
      error: text(),
      duration_ms: int(),
    },
    indexes: [{ name: 'branchify_webhook_attempts_delivery_idx', columns: ['delivery_id', 'attempt'] }],
  }),

  /** Which library videos a funnel uses (rewritten on every save): total_funnels and safe deletes. */
  'funnel-video': defineType({
    collectionName: 'branchify_funnel_videos',
    singularName: 'funnel-video',
    pluralName: 'funnel-videos',
    displayName: 'Funnel video link',
    internal: true,
    attributes: {
      funnel_id: int({ required: true }),
      video_id: int({ required: true }),
      owner_id: int({ required: true }),
      funnel: belongsTo(FUNNEL, 'funnel_id'),
      video: belongsTo(VIDEO, 'video_id'),
      owner: belongsToUser('owner_id'),
    },
    indexes: [
      { name: 'branchify_funnel_videos_pair_uq', columns: ['funnel_id', 'video_id'], type: 'unique' },
      { name: 'branchify_funnel_videos_video_idx', columns: ['video_id'] },
    ],
  }),

  /** Images a creator uploaded for branch buttons and overlays; removed with the account. */
  'creator-image': defineType({
    collectionName: 'branchify_creator_images',
    singularName: 'creator-image',
    pluralName: 'creator-images',
    displayName: 'Creator image',
    internal: true,
    attributes: {
      owner_id: int({ required: true }),
      owner: belongsToUser('owner_id'),
      url: text({ required: true }),
      /** Bytes accepted (after SVG sanitising). */
      size: int({ required: true }),
      /** The upload plugin's file row, so its derived sizes go with it. */
      file_id: int(),
    },
    indexes: [{ name: 'branchify_creator_images_owner_idx', columns: ['owner_id', 'created_at'] }],
  }),

  'funnel-view': defineType({
    collectionName: 'branchify_funnel_views',
    singularName: 'funnel-view',
    pluralName: 'funnel-views',
    displayName: 'Funnel view',
    internal: true,
    attributes: {
      funnel_id: int({ required: true }),
      funnel: ofFunnel(),
      event_id: str({ required: true }),
      viewer_token: str(),
      watch_time: decimal(),
      last_watch_time: decimal(),
      editor_id: textOf(ID_MAX),
      /** Furthest point reached per video: { [editor_id]: { max, duration } } (completion analytics). */
      progress: json(),
    },
    indexes: [
      { name: 'branchify_funnel_views_event_uq', columns: ['event_id'], type: 'unique' },
      /** Covers the report's scan (views, unique viewers, watch time) without reading the rows. */
      { name: 'branchify_funnel_views_report_idx', columns: ['funnel_id', 'created_at', 'viewer_token', 'watch_time'] },
      { name: 'branchify_funnel_views_viewer_idx', columns: ['viewer_token'] },
    ],
  }),

  'funnel-interaction': defineType({
    collectionName: 'branchify_funnel_interactions',
    singularName: 'funnel-interaction',
    pluralName: 'funnel-interactions',
    displayName: 'Funnel interaction',
    internal: true,
    attributes: {
      funnel_id: int({ required: true }),
      funnel: ofFunnel(),
      /** The view's client-generated id (its event_id). */
      view_id: str(),
      event_id: str({ required: true }),
      video_id: textOf(ID_MAX),
      node_id: textOf(ID_MAX),
      /** What the branch led to: a video's editor id, the branch's link as the funnel has it, or `timestamp:<s>`. */
      connected_node: textOf(BRANCH_TARGET_MAX),
      type: enumeration(INTERACTION_TYPES, { default: 'branch' }),
      player_time: decimal(),
    },
    indexes: [
      { name: 'branchify_funnel_interactions_event_uq', columns: ['event_id'], type: 'unique' },
      { name: 'branchify_funnel_interactions_funnel_idx', columns: ['funnel_id', 'created_at'] },
    ],
  }),

  /** Per-day counters the analytics report sums, kept with the views and interactions they count. */
  'analytics-daily': defineType({
    collectionName: 'branchify_analytics_daily',
    singularName: 'analytics-daily',
    pluralName: 'analytics-dailies',
    displayName: 'Analytics per day',
    internal: true,
    attributes: {
      funnel_id: int({ required: true }),
      funnel: ofFunnel(),
      /** UTC day, YYYY-MM-DD. */
      day: str({ required: true }),
      metric: str({ required: true }),
      /** A video, or for 'reached' any interaction's target. */
      node: textOf(BRANCH_TARGET_MAX, { default: '' }),
      branch: textOf(ID_MAX, { default: '' }),
      target: textOf(BRANCH_TARGET_MAX, { default: '' }),
      kind: str({ default: '' }),
      value: bigint({ default: 0 }),
    },
    indexes: [
      {
        name: 'branchify_analytics_daily_key_uq',
        columns: ['funnel_id', 'day', 'metric', 'node', 'branch', 'target', 'kind'],
        type: 'unique',
      },
    ],
  }),

  /** What each view was already counted for (an edge taken, a video reached): counted once per view. */
  'analytics-mark': defineType({
    collectionName: 'branchify_analytics_marks',
    singularName: 'analytics-mark',
    pluralName: 'analytics-marks',
    displayName: 'Analytics mark',
    internal: true,
    attributes: {
      funnel_id: int({ required: true }),
      funnel: ofFunnel(),
      view_key: str({ required: true }),
      mark: text({ required: true }),
    },
    indexes: [
      { name: 'branchify_analytics_marks_uq', columns: ['view_key', 'mark'], type: 'unique' },
      { name: 'branchify_analytics_marks_funnel_idx', columns: ['funnel_id'] },
    ],
  }),

  /** Values an install keeps once for all its processes (its install id), by a unique name. */
  setting: defineType({
    collectionName: 'branchify_settings',
    singularName: 'setting',
    pluralName: 'settings',
    displayName: 'Setting',
    internal: true,
    attributes: {
      name: str({ required: true }),
      value: text({ required: true }),
    },
    indexes: [{ name: 'branchify_settings_name_uq', columns: ['name'], type: 'unique' }],
  }),

  /**
   * Stripe Connect OAuth round trips under way: the state (hashed), the admin and session that
   * started it, the browser it was handed to (a cookie's hash), and when it expires. Used once.
   */
  'stripe-connect-state': defineType({
    collectionName: 'branchify_stripe_connect_states',
    singularName: 'stripe-connect-state',
    pluralName: 'stripe-connect-states',
    displayName: 'Stripe Connect state',
    internal: true,
    attributes: {
      state_hash: str({ required: true }),
      browser_hash: str({ required: true }),
      admin_id: int({ required: true }),
      session_family: str({ required: true }),
      expires_at: date(),
    },
    indexes: [{ name: 'branchify_stripe_connect_states_hash_uq', columns: ['state_hash'], type: 'unique' }],
  }),
};
