import * as shared from '@branchify/shared';
import type { Knex } from 'knex';
import * as ingest from '../../plugins/branchify/server/src/analytics/validators';
import { isPostgres, openDb } from './support/db';
import { spawnApp, type SpawnedApp } from './support/spawn';

/**
 * Every text a schema accepts fits the column it is stored in: each string field of every input
 * schema (the shared ones and ingest's) is either stored in named columns, whose real type in the
 * database must hold the schema's maximum (information_schema on PostgreSQL; the declared type on
 * SQLite, which does not enforce it but is what the schema says), or said to be kept elsewhere
 * (inside a JSON document, sealed, hashed, only compared). A new field fails here until someone
 * decides where it goes.
 */

type Place =
  /** Stored as typed in these columns; `bound`: the longest value a pattern lets through (no .max). */
  | { columns: string[]; bound?: number }
  /** Kept elsewhere: the reason. */
  | { elsewhere: string };

const col = (...columns: string[]): Place => ({ columns });
const bounded = (bound: number, ...columns: string[]): Place => ({ columns, bound });
const json = (column: string): Place => ({ elsewhere: `inside the JSON document ${column}` });
const sealed = (column: string): Place => ({ elsewhere: `sealed into ${column} (text)` });
const unstored = (why: string): Place => ({ elsewhere: why });

const UUID = 36;
const funnelDocument = json('branchify_funnels.videos');
const branchTarget = col('branchify_funnel_interactions.connected_node', 'branchify_analytics_daily.target', 'branchify_analytics_daily.node');

const PLACES: Record<string, Place> = {
  // The funnel document's parts live in its videos JSON.
  'showSkipSchema.text': funnelDocument,
  'showSkipSchema.color': funnelDocument,
  'promptSchema.text': funnelDocument,
  'promptSchema.color': funnelDocument,
  'branchSchema.id': funnelDocument,
  'branchSchema.name': funnelDocument,
  'branchSchema.externalLink': funnelDocument,
  'branchSchema.video': funnelDocument,
  'branchSchema.when': funnelDocument,
  'branchSettingsSchema.inaction': funnelDocument,
  'branchSettingsSchema.inactionWhen': funnelDocument,
  'textDataSchema.title': funnelDocument,
  'textDataSchema.color': funnelDocument,
  'funnelVideoSchema.editor_id': funnelDocument,
  'funnelCreateSchema.title': col('branchify_funnels.title'),
  'funnelCreateSchema.description': col('branchify_funnels.description'),
  'funnelDocumentSchema.title': col('branchify_funnels.title'),
  'funnelDocumentSchema.description': col('branchify_funnels.description'),
  // Accounts.
  'registerSchema.first_name': col('up_users.first_name'),
  'registerSchema.last_name': col('up_users.last_name'),
  'registerSchema.email': col('up_users.email', 'up_users.username'),
  'registerSchema.password': unstored('hashed'),
  'registerSchema.password_confirmation': unstored('compared with the password'),
  'loginSchema.email': unstored('looked up'),
  'loginSchema.password': unstored('compared with the hash'),
  'changePasswordSchema.current_password': unstored('compared with the hash'),
  'changePasswordSchema.password': unstored('hashed'),
  'changePasswordSchema.password_confirmation': unstored('compared with the password'),
  'forgotSchema.email': unstored('looked up'),
  'resetSchema.token': unstored('compared with a stored hash'),
  'resetSchema.email': unstored('looked up'),
  'resetSchema.password': unstored('hashed'),
  'resetSchema.password_confirmation': unstored('compared with the password'),
  'verifyEmailSchema.id': unstored('the signed link, checked'),
  'verifyEmailSchema.hash': unstored('the signed link, checked'),
  'verifyEmailSchema.expires': unstored('the signed link, checked'),
  'verifyEmailSchema.signature': unstored('the signed link, checked'),
  'createUserSchema.first_name': col('up_users.first_name'),
  'createUserSchema.last_name': col('up_users.last_name'),
  'createUserSchema.email': col('up_users.email', 'up_users.username'),
  'createUserSchema.password': unstored('hashed'),
  'createUserSchema.password_confirmation': unstored('compared with the password'),
  'updateProfileSchema.first_name': col('up_users.first_name'),
  'updateProfileSchema.last_name': col('up_users.last_name'),
  'updateProfileSchema.email': col('up_users.email', 'up_users.username'),
  'updateStatusSchema.status_note': col('up_users.status_note'),
  // Plans and billing.
  'planSchema.name': col('branchify_plans.name'),
  'planSchema.description': col('branchify_plans.description'),
  'planSchema.price': bounded(10, 'branchify_plans.price'),
  'planSchema.currency': bounded(3, 'branchify_plans.currency'),
  'subscribeSchema.payment_method_id': col('branchify_subscriptions.payment_method_id'),
  'subscribeSchema.status': unstored('ignored (the server decides)'),
  'subscribeSchema.managed_by': unstored('ignored (the server decides)'),
  'adminSubscribeSchema.payment_method_id': col('branchify_subscriptions.payment_method_id'),
  'adminSubscribeSchema.status': unstored('ignored (the server decides)'),
  'adminSubscribeSchema.managed_by': unstored('ignored (the server decides)'),
  'changeSchema.payment_method_id': col('branchify_subscriptions.payment_method_id'),
  'changeSchema.status': unstored('ignored (the server decides)'),
  'cancelSchema.cancellation_reason': col('branchify_subscriptions.cancellation_reason'),
  'cancelSchema.cancellation_note': col('branchify_subscriptions.cancellation_reason'),
  'integratorSubscribeSchema.renews_at': unstored('parsed into a date'),
  'integratorUpdateSchema.renews_at': unstored('parsed into a date'),
  'integratorUpdateSchema.cancellation_reason': col('branchify_subscriptions.cancellation_reason'),
  'payInvoiceSchema.invoice_id': unstored('looked up'),
  'refundSchema.invoice_id': unstored('looked up'),
  'refundSchema.amount': unstored('sent to Stripe as a number'),
  'paymentMethodSchema.payment_method_id': col('up_users.stripe_payment_method_id', 'branchify_subscriptions.payment_method_id'),
  'stripeConfigSchema.client_id': col('branchify_stripe_settings.client_id'),
  'stripeConfigSchema.secret': sealed('branchify_stripe_settings.secret_encrypted'),
  'stripeConfigSchema.publishable_key': col('branchify_stripe_settings.publishable_key'),
  'stripeConfigSchema.webhook_secret': sealed('branchify_stripe_settings.webhook_secret_encrypted'),
  // Settings.
  'mailerSchema.host': col('branchify_mailer_settings.host'),
  'mailerSchema.username': col('branchify_mailer_settings.username'),
  'mailerSchema.password': sealed('branchify_mailer_settings.password_encrypted'),
  'mailerSchema.from_address': col('branchify_mailer_settings.from_address'),
  'mailerSchema.from_name': col('branchify_mailer_settings.from_name'),
  'licenseKeySchema.license_key': sealed('branchify_update_state.license_key_encrypted'),
  'customization.app_name': col('branchify_customization.app_name'),
  'customization.app_description': col('branchify_customization.app_description'),
  'customization.app_logo_url': col('branchify_customization.app_logo_url'),
  'customization.app_favicon_url': col('branchify_customization.app_favicon_url'),
  'customization.app_support_url': col('branchify_customization.app_support_url'),
  'emailPreview.template': unstored('a template name, looked up'),
  'emailPreview.subject': unstored('rendered, not stored'),
  'emailPreview.body': unstored('rendered, not stored'),
  'emailPreview.app_name': unstored('rendered, not stored'),
  'webhookEndpointSchema.url': col('branchify_webhook_endpoints.url'),
  'webhookEndpointSchema.description': col('branchify_webhook_endpoints.description'),
  // Videos.
  'createVideoSchema.url': unstored('parsed (at most 2048 characters) into source, source_url and embed_url (text) and a provider id of at most 64'),
  'createVideoSchema.video_id': unstored('parsed like url'),
  'createVideoSchema.title': col('branchify_videos.title'),
  'createVideoSchema.thumbnail': col('branchify_videos.thumbnail'),
  'updateVideoSchema.title': col('branchify_videos.title'),
  'editVideoFormSchema.title': col('branchify_videos.title'),
  'editVideoFormSchema.url': unstored('shown locked in the form, ignored'),
  // Caption tracks: a BCP-47 tag of at most 35 characters (checked before it is made canonical), and a label.
  'captionTrackSchema.language': bounded(35, 'branchify_caption_tracks.language'),
  'captionTrackSchema.label': col('branchify_caption_tracks.label'),
  'analyticsFilterSchema.from': unstored('a day of the range'),
  'analyticsFilterSchema.to': unstored('a day of the range'),
  // What the player reports.
  'startViewSchema.event_id': bounded(UUID, 'branchify_funnel_views.event_id', 'branchify_analytics_marks.view_key'),
  'startViewSchema.viewer_token': bounded(64, 'branchify_funnel_views.viewer_token'),
  'updateViewSchema.view_id': unstored('looked up'),
  'updateViewSchema.view_token': unstored('checked against its signature'),
  'updateViewSchema.viewer_token': unstored('looked up'),
  'updateViewSchema.editor_id': col('branchify_funnel_views.editor_id', 'branchify_analytics_daily.node'),
  'interactionSchema.event_id': bounded(UUID, 'branchify_funnel_interactions.event_id', 'branchify_analytics_marks.view_key'),
  'interactionSchema.view_id': bounded(UUID, 'branchify_funnel_interactions.view_id', 'branchify_analytics_marks.view_key'),
  'interactionSchema.view_token': unstored('checked against its signature'),
  'interactionSchema.video_id': col('branchify_funnel_interactions.video_id', 'branchify_analytics_daily.node'),
  'interactionSchema.node_id': col('branchify_funnel_interactions.node_id', 'branchify_analytics_daily.branch'),
  'interactionSchema.connected_node': branchTarget,
};

// A zod schema seen through its wrappers (optional, default, transform and refine pipes).
type Def = { type: string; innerType?: Zod; in?: Zod; out?: Zod; options?: Zod[]; shape?: Record<string, Zod> };
type Zod = { _zod: { def: Def; bag: { maximum?: number } } };
const isZod = (v: unknown): v is Zod => typeof v === 'object' && v !== null && '_zod' in v;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

const unwrap = (schema: Zod): Zod => {
  let s = schema;
  for (;;) {
    const def = s._zod.def;
    if (WRAPPERS.has(def.type) && def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in && def.out) s = def.in._zod.def.type === 'transform' ? def.out : def.in;
    else return s;
  }
};

/** Whether the field takes text, and the longest text it takes (undefined: no maximum). */
const textOf = (schema: Zod): { text: boolean; max?: number } => {
  const s = unwrap(schema);
  const def = s._zod.def;
  if (def.type === 'string') return { text: true, max: s._zod.bag.maximum };
  if (def.type === 'pipe' && def.in && def.out) {
    const [a, b] = [textOf(def.in), textOf(def.out)];
    return { text: a.text || b.text, max: [a.max, b.max].filter((m): m is number => m !== undefined).sort((x, y) => x - y)[0] };
  }
  if (def.type === 'union' && def.options) {
    const parts = def.options.map(textOf).filter((p) => p.text);
    if (!parts.length) return { text: false };
    const maxes = parts.map((p) => p.max);
    return { text: true, max: maxes.some((m) => m === undefined) ? undefined : Math.max(...(maxes as number[])) };
  }
  return { text: false };
};

const catalogue: shared.EmailTemplateCatalogue = {
  isTemplateKey: () => true,
  unknownPlaceholders: () => [],
  placeholders: () => [],
  missingRequired: () => [],
};
const SCHEMAS: Record<string, unknown> = {
  ...shared,
  ...ingest,
  customization: shared.customizationSchemaFor(catalogue),
  emailPreview: shared.emailPreviewSchemaFor(catalogue),
};

/** `schema.field` → the longest text it takes, for every text field of every object schema. */
const textFields = (): Map<string, number | undefined> => {
  const fields = new Map<string, number | undefined>();
  for (const [name, value] of Object.entries(SCHEMAS)) {
    if (!isZod(value)) continue;
    const object = unwrap(value);
    if (object._zod.def.type !== 'object' || !object._zod.def.shape) continue;
    for (const [field, schema] of Object.entries(object._zod.def.shape)) {
      const { text, max } = textOf(schema);
      if (text) fields.set(`${name}.${field}`, max);
    }
  }
  return fields;
};

/** A column's real capacity in characters (Infinity for text). */
const capacity = async (db: Knex, table: string, column: string): Promise<{ type: string; chars: number }> => {
  if (isPostgres()) {
    const result = await db.raw(
      'SELECT data_type, character_maximum_length FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?',
      [table, column],
    );
    const row = result.rows[0] as { data_type: string; character_maximum_length: number | null } | undefined;
    if (!row) return { type: 'missing', chars: 0 };
    if (row.data_type === 'text') return { type: 'text', chars: Infinity };
    if (row.data_type === 'character varying') return { type: `varchar(${row.character_maximum_length})`, chars: row.character_maximum_length ?? Infinity };
    return { type: row.data_type, chars: 0 };
  }
  const rows = (await db.raw(`PRAGMA table_info('${table}')`)) as Array<{ name: string; type: string }>;
  const declared = rows.find((r) => r.name === column)?.type.toLowerCase();
  if (!declared) return { type: 'missing', chars: 0 };
  if (declared === 'text') return { type: declared, chars: Infinity };
  const varchar = /^varchar\((\d+)\)$/.exec(declared);
  return { type: declared, chars: varchar ? Number(varchar[1]) : 0 };
};

describe('stored widths follow the schemas', () => {
  let db: Knex;
  beforeAll(() => {
    db = openDb();
  });
  afterAll(() => db.destroy());

  it('knows where every text field of every input schema is kept', () => {
    const fields = textFields();
    expect([...fields.keys()].filter((k) => !(k in PLACES)).sort()).toEqual([]);
    expect(Object.keys(PLACES).filter((k) => !fields.has(k))).toEqual([]);
  });

  it('stores every schema maximum in a column that holds it', async () => {
    const misfits: string[] = [];
    for (const [field, max] of textFields()) {
      const place = PLACES[field];
      if (!place || !('columns' in place)) continue;
      const longest = max ?? place.bound;
      for (const target of place.columns) {
        const [table, column] = target.split('.') as [string, string];
        const { type, chars } = await capacity(db, table, column);
        if (longest === undefined) misfits.push(`${field}: no maximum, stored in ${target} ${type}`);
        else if (chars < longest) misfits.push(`${field}: up to ${longest} characters, stored in ${target} ${type}`);
      }
    }
    expect(misfits).toEqual([]);
  });
});

/**
 * An install whose tables were made with the old widths: Strapi's schema sync at start widens them
 * (its stored schema differs from the code's, so it compares every column with the database and
 * alters the ones whose type changed), and every row stays.
 */
describe('an existing install with the old widths', () => {
  const WIDENED = [
    ['branchify_funnel_interactions', 'connected_node'],
    ['branchify_analytics_daily', 'target'],
    ['branchify_analytics_daily', 'node'],
  ] as const;
  let first: SpawnedApp | undefined;
  let second: SpawnedApp | undefined;
  afterAll(async () => {
    await second?.cleanUp();
    await first?.cleanUp();
  });

  it('is widened at start without losing a row', async () => {
    first = await spawnApp();
    first.child.kill('SIGTERM');
    await first.exited;
    const db = first.openDb();
    try {
      // The columns as the previous release made them, and a row in them.
      for (const [table, column] of WIDENED) {
        if (isPostgres()) await db.raw('ALTER TABLE ?? ALTER COLUMN ?? TYPE varchar(255)', [table, column]);
        else await db.schema.alterTable(table, (t) => void t.string(column, 255).alter());
      }
      await db('strapi_database_schema').update({ hash: 'the previous release' });
      const now = new Date();
      const [user] = await db('up_users').insert({ username: 'old@example.test', email: 'old@example.test', created_at: now, updated_at: now }).returning('id');
      const [funnel] = await db('branchify_funnels')
        .insert({ owner_id: user.id, identifier: 'old-install', title: 'Old', created_at: now, updated_at: now })
        .returning('id');
      await db('branchify_funnel_interactions').insert({
        funnel_id: funnel.id,
        event_id: 'old-install-event',
        node_id: 'b1',
        connected_node: 'a',
        created_at: now,
        updated_at: now,
      });
      for (const [table, column] of WIDENED) expect((await capacity(db, table, column)).type).toMatch(/varchar\(255\)/);
    } finally {
      await db.destroy();
    }

    second = await spawnApp(first.databaseEnv);
    const after = first.openDb();
    try {
      for (const [table, column] of WIDENED) expect((await capacity(after, table, column)).type).toBe('text');
      expect(await after('branchify_funnel_interactions').where({ event_id: 'old-install-event' }).first('connected_node')).toEqual({ connected_node: 'a' });
    } finally {
      await after.destroy();
    }
  });
});
