import { addVideo, createFunnel, freePlan, subscribedUser, twoVideoDocument } from './support/content';
import { isPostgres } from './support/db';
import { cmsOperatorJwt } from './support/cms';
import { client } from './support/http';
import { uniqueEmail, type Session } from './support/users';
import { useApiSuite } from './support/suite';

/**
 * Relations between our content types are read from the integer columns the code writes
 * (owner_id, user_id, plan_id, ...): Strapi populates and filters on them without a link table,
 * a second column or a key of its own, and the Content Manager reads them.
 */

/** Every relation declared on our types: [table, its column]. */
const RELATIONS: ReadonlyArray<readonly [string, string]> = [
  ['branchify_subscriptions', 'user_id'],
  ['branchify_subscriptions', 'plan_id'],
  ['branchify_invoices', 'user_id'],
  ['branchify_invoices', 'subscription_id'],
  ['branchify_videos', 'owner_id'],
  ['branchify_funnels', 'owner_id'],
  ['branchify_funnel_videos', 'funnel_id'],
  ['branchify_funnel_videos', 'video_id'],
  ['branchify_funnel_videos', 'owner_id'],
  ['branchify_creator_images', 'owner_id'],
  ['branchify_refresh_tokens', 'user_id'],
  ['branchify_password_resets', 'user_id'],
  ['branchify_funnel_views', 'funnel_id'],
  ['branchify_funnel_interactions', 'funnel_id'],
  ['branchify_analytics_daily', 'funnel_id'],
  ['branchify_analytics_marks', 'funnel_id'],
  ['up_users', 'subscription_id'],
];
/** The relation attributes' names, none of which may become a column. */
const RELATION_NAMES = ['owner', 'user', 'plan', 'subscription', 'funnel', 'video'];

const suite = useApiSuite();
let cmsToken: string;

const tablesOf = async (): Promise<string[]> => {
  if (isPostgres()) {
    const rows = await suite.db.raw('SELECT table_name FROM information_schema.tables WHERE table_schema = ?', [process.env.DATABASE_SCHEMA]);
    return rows.rows.map((r: { table_name: string }) => r.table_name);
  }
  const rows = await suite.db.raw("SELECT name FROM sqlite_master WHERE type = 'table'");
  return rows.map((r: { name: string }) => r.name);
};

const columnsOf = async (table: string): Promise<string[]> => {
  if (isPostgres()) {
    const rows = await suite.db.raw('SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ?', [
      process.env.DATABASE_SCHEMA,
      table,
    ]);
    return rows.rows.map((r: { column_name: string }) => r.column_name);
  }
  return (await suite.db.raw(`PRAGMA table_info('${table}')`)).map((r: { name: string }) => r.name);
};

const cm = (url: string) => client().get(`/content-manager${url}`, cmsToken);

beforeAll(async () => {
  cmsToken = await cmsOperatorJwt('Rae');
});

describe('the schema of the relations', () => {
  it('has no link table for our types and no column for a relation', async () => {
    const linkTables = (await tablesOf()).filter((t) => t.endsWith('_lnk') && (t.startsWith('branchify_') || t.startsWith('up_users_subscription')));
    expect(linkTables).toEqual([]);
    for (const table of new Set(RELATIONS.map(([t]) => t))) {
      const columns = await columnsOf(table);
      expect({ table, duplicates: columns.filter((c, i) => columns.indexOf(c) !== i) }).toEqual({ table, duplicates: [] });
      expect({ table, relationColumns: columns.filter((c) => RELATION_NAMES.includes(c) || /_id_id$/.test(c)) }).toEqual({ table, relationColumns: [] });
      for (const [t, column] of RELATIONS.filter(([t]) => t === table))
        expect({ t, column, present: columns.includes(column) }).toEqual({ t, column, present: true });
    }
  });

  (isPostgres() ? it : it.skip)('keeps one foreign key per reference, with its own delete rule (none added by Strapi)', async () => {
    const rows = (
      await suite.db.raw(
        `SELECT c.conrelid::regclass::text AS tbl, a.attname AS col, c.conname, c.confdeltype
           FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
           JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
          WHERE n.nspname = ? AND c.contype = 'f'`,
        [process.env.DATABASE_SCHEMA],
      )
    ).rows as Array<{ tbl: string; col: string; conname: string; confdeltype: string }>;
    const rule = { c: 'CASCADE', r: 'RESTRICT', n: 'SET NULL', a: 'NO ACTION', d: 'SET DEFAULT' } as Record<string, string>;
    const expected: Record<string, string> = {
      'branchify_subscriptions.user_id': 'CASCADE',
      'branchify_subscriptions.plan_id': 'RESTRICT',
      'branchify_invoices.user_id': 'CASCADE',
      'branchify_invoices.subscription_id': 'SET NULL',
      'branchify_funnel_videos.video_id': 'RESTRICT',
      'up_users.subscription_id': 'SET NULL',
      'branchify_funnels.owner_id': 'CASCADE',
      'branchify_funnel_views.funnel_id': 'CASCADE',
    };
    for (const [table, column] of RELATIONS) {
      const keys = rows.filter((r) => r.tbl.replace(/^.*\./, '') === table && r.col === column);
      expect({ table, column, keys: keys.map((k) => k.conname) }).toEqual({ table, column, keys: [`${table}_${column}_fk`] });
      const want = expected[`${table}.${column}`];
      if (want) expect({ table, column, rule: rule[keys[0]!.confdeltype] }).toEqual({ table, column, rule: want });
    }
  });
});

describe('relations read through Strapi', () => {
  let owner: Session;
  let funnel: { id: number; identifier: string };
  let videoA: { id: number };
  let videoB: { id: number };

  beforeAll(async () => {
    const plan = await freePlan(suite.admin);
    owner = await subscribedUser(suite.admin, plan.id);
    videoA = await addVideo(owner, { title: 'Relations A' });
    videoB = await addVideo(owner, { title: 'Relations B' });
    funnel = await createFunnel(owner, { title: 'Relations funnel' });
    const saved = await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(videoA.id, videoB.id), owner.token);
    expect(saved.status).toBe(200);
  });

  const documentIdOf = async (table: string, id: number): Promise<string> => (await suite.db(table).where({ id }).first()).document_id;

  it('populates a relation from its column in the Content Manager (funnel → owner, subscription → plan, user → subscription)', async () => {
    const funnelDoc = await documentIdOf('branchify_funnels', funnel.id);
    const shownOwner = await cm(`/relations/plugin::branchify.funnel/${funnelDoc}/owner`);
    expect(shownOwner.status).toBe(200);
    expect(shownOwner.body.results.map((r: { id: number }) => r.id)).toEqual([owner.id]);

    const sub = await suite.db('branchify_subscriptions').where({ user_id: owner.id }).first();
    const plan = await cm(`/relations/plugin::branchify.subscription/${sub.document_id}/plan`);
    expect(plan.status).toBe(200);
    expect(plan.body.results.map((r: { id: number }) => r.id)).toEqual([sub.plan_id]);

    const user = await suite.db('up_users').where({ id: owner.id }).first();
    expect(user.subscription_id).toBe(sub.id);
    const current = await cm(`/relations/plugin::users-permissions.user/${user.document_id}/subscription`);
    expect(current.status).toBe(200);
    expect(current.body.results.map((r: { id: number }) => r.id)).toEqual([sub.id]);
  });

  it('filters on a relation (funnels of an owner found by email)', async () => {
    const url = `/collection-types/plugin::branchify.funnel?filters[owner][email][$eq]=${encodeURIComponent(owner.email)}`;
    const found = await cm(url);
    expect(found.status).toBe(200);
    expect(found.body.results.map((r: { id: number }) => r.id)).toEqual([funnel.id]);
    const none = await cm(`/collection-types/plugin::branchify.funnel?filters[owner][email][$eq]=${encodeURIComponent(uniqueEmail('nobody'))}`);
    expect(none.body.results).toEqual([]);
  });

  it('opens our content types in the Content Manager, the integer columns still answered', async () => {
    const sub = await suite.db('branchify_subscriptions').where({ user_id: owner.id }).first();
    for (const [uid, table, id] of [
      ['plugin::branchify.funnel', 'branchify_funnels', funnel.id],
      ['plugin::branchify.video', 'branchify_videos', videoA.id],
      ['plugin::branchify.subscription', 'branchify_subscriptions', sub.id],
    ] as const) {
      const list = await cm(`/collection-types/${uid}?page=1&pageSize=10`);
      expect({ uid, status: list.status }).toEqual({ uid, status: 200 });
      const configuration = await cm(`/content-types/${uid}/configuration`);
      expect({ uid, status: configuration.status }).toEqual({ uid, status: 200 });
      const one = await cm(`/collection-types/${uid}/${await documentIdOf(table, id)}`);
      expect({ uid, status: one.status }).toEqual({ uid, status: 200 });
      expect(one.body.data.id).toBe(id);
    }
    const shown = await cm(`/collection-types/plugin::branchify.funnel/${await documentIdOf('branchify_funnels', funnel.id)}`);
    expect(shown.body.data.owner_id).toBe(owner.id);
  });

  it('leaves the integer columns as the code writes them: a Content Manager edit keeps the owner', async () => {
    const url = `/content-manager/collection-types/plugin::branchify.video/${await documentIdOf('branchify_videos', videoB.id)}`;
    const edit = await client().put(url, { title: 'Renamed in /cms' }, cmsToken);
    expect(edit.status).toBe(200);
    const row = await suite.db('branchify_videos').where({ id: videoB.id }).first();
    expect({ title: row.title, owner_id: row.owner_id }).toEqual({ title: 'Renamed in /cms', owner_id: owner.id });
    // The app's own reads go on through owner_id.
    const listed = await owner.http.get('/api/videos', owner.token);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain('Renamed in /cms');
    const links = await suite.db('branchify_funnel_videos').where({ funnel_id: funnel.id }).orderBy('video_id');
    expect(links.map((l: { video_id: number; owner_id: number }) => [l.video_id, l.owner_id])).toEqual([
      [videoA.id, owner.id],
      [videoB.id, owner.id],
    ]);
  });
});
