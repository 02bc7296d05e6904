import type { Core } from '@strapi/strapi';
import type { CacheVersionRow } from '../operations/cache-versions';
import type { SettingRow } from '../operations/install-id';
import type { FunnelInteractionRow, FunnelViewRow } from '../analytics/service';
import type { PasswordResetRow } from '../auth/links';
import type { RefreshTokenRow } from '../auth/tokens';
import type { InvoiceRow, SubscriptionRow } from '../billing/records';
import type { ConnectStateRow } from '../billing/connect-state';
import type { StripeSettingsRow } from '../billing/settings';
import type { StripeEventRow } from '../billing/webhooks';
import type { CustomizationRow } from '../customization/service';
import type { FunnelRow, FunnelVideoRow } from '../funnels/service';
import type { OutboxRow } from '../mailer/outbox';
import type { MailerSettingsRow } from '../mailer/settings';
import type { PlanRow } from '../plans/present';
import type { RateLimitRow } from '../rate-limit/service';
import type { UpdateStateRow } from '../updates/service';
import type { CreatorImageRow } from '../uploads/service';
import type { RoleRow, UserRow } from '../users/serialize';
import type { VideoRow } from '../videos/service';
import type { AttemptRow, WebhookDeliveryRow } from '../webhooks/queue';
import type { EndpointRow } from '../webhooks/service';

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
  setting: 'plugin::branchify.setting',
  stripeConnectState: 'plugin::branchify.stripe-connect-state',
} as const;

/** The row the query engine returns for each uid (every key of UID must have one). */
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

export type Uid = (typeof UID)[keyof typeof UID];

/** Uid to row type. */
export type Rows = { [K in keyof typeof UID as (typeof UID)[K]]: RowsByKey[K] };

/** Columns Strapi adds to every content type (a row type may leave them out; queries may name them). */
interface StrapiColumns {
  id: number;
  documentId: string;
  createdAt: string | Date;
  updatedAt: string | Date;
}

/** A row as the engine answers it, and what a query may name: the row's fields and Strapi's own. */
export type Columns<R> = Omit<StrapiColumns, keyof R> & R;

/** Strapi's filter operators on one column (`$in: [1, 2]`, `$lt: date`, `$null: true`, ...). */
export interface Operators<V> {
  $eq?: V | null;
  $ne?: V | null;
  $eqi?: V;
  $nei?: V;
  $in?: readonly V[];
  $notIn?: readonly V[];
  $lt?: V;
  $lte?: V;
  $gt?: V;
  $gte?: V;
  $between?: readonly [V, V];
  $contains?: V;
  $notContains?: V;
  $containsi?: V;
  $notContainsi?: V;
  $startsWith?: V;
  $startsWithi?: V;
  $endsWith?: V;
  $endsWithi?: V;
  $null?: boolean;
  $notNull?: boolean;
  $not?: Operators<V> | V | null;
}

/** One column's condition: a value (null for IS NULL), a list (IN), or operators. */
export type Condition<V> = V | null | readonly NonNullable<V>[] | Operators<NonNullable<V>>;

/** A `where` over a row's columns, with `$and`/`$or`/`$not` nesting. */
export type Where<R> = { [K in keyof Columns<R>]?: Condition<Columns<R>[K]> } & {
  $and?: ReadonlyArray<Where<R>>;
  $or?: ReadonlyArray<Where<R>>;
  $not?: Where<R>;
};

/** Values a write sets (any subset of the row's columns). */
export type Data<R> = { [K in keyof Columns<R>]?: Columns<R>[K] };

type Direction = 'asc' | 'desc';
type Order<R> = { [K in keyof Columns<R>]?: Direction };
export type OrderBy<R> = keyof Columns<R> | Order<R> | ReadonlyArray<Order<R> | keyof Columns<R>>;

export interface FindOneParams<R> {
  where?: Where<R>;
  orderBy?: OrderBy<R>;
}

export interface FindManyParams<R> extends FindOneParams<R> {
  limit?: number;
  offset?: number;
}

/** A read that names its columns answers only those. */
type Selected<R, K extends keyof Columns<R>> = Pick<Columns<R>, K>;

/**
 * Strapi's query engine (`strapi.db.query`) for one of our content types, with the row type
 * filled in: the same object, only typed.
 */
export interface TypedQuery<R> {
  findOne<K extends keyof Columns<R>>(params: FindOneParams<R> & { select: readonly K[] }): Promise<Selected<R, K> | null>;
  findOne(params?: FindOneParams<R>): Promise<Columns<R> | null>;
  findMany<K extends keyof Columns<R>>(params: FindManyParams<R> & { select: readonly K[] }): Promise<Array<Selected<R, K>>>;
  findMany(params?: FindManyParams<R>): Promise<Array<Columns<R>>>;
  count(params?: { where?: Where<R> }): Promise<number>;
  create<K extends keyof Columns<R>>(params: { data: Data<R>; select: readonly K[] }): Promise<Selected<R, K>>;
  create(params: { data: Data<R> }): Promise<Columns<R>>;
  /** The updated row. Strapi answers null when nothing matches: callers update a row they located. */
  update<K extends keyof Columns<R>>(params: { where: Where<R>; data: Data<R>; select: readonly K[] }): Promise<Selected<R, K>>;
  update(params: { where: Where<R>; data: Data<R> }): Promise<Columns<R>>;
  /** The deleted row, or null when nothing matched. */
  delete(params: { where: Where<R> }): Promise<Columns<R> | null>;
  updateMany(params: { where?: Where<R>; data: Data<R> }): Promise<{ count: number }>;
  deleteMany(params?: { where?: Where<R> }): Promise<{ count: number }>;
}

/** The query engine for one of our uids, typed by its row. */
export const query = <U extends Uid>(strapi: Strapi, uid: U): TypedQuery<Rows[U]> => strapi.db.query(uid);

/** Rows of a `knex.raw` answer: an array on SQLite, `{ rows }` on PostgreSQL. */
export const rawRows = <T>(result: T[] | { rows: T[] }): T[] => (Array.isArray(result) ? result : result.rows);
