import { isPostgres } from './support/db';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

const indexesOf = async (table: string): Promise<string[]> => {
  if (isPostgres()) {
    const rows = await suite.db.raw('SELECT indexname FROM pg_indexes WHERE tablename = ? AND schemaname = ?', [table, process.env.DATABASE_SCHEMA]);
    return rows.rows.map((r: { indexname: string }) => r.indexname);
  }
  const rows = await suite.db.raw(`PRAGMA index_list('${table}')`);
  return rows.map((r: { name: string }) => r.name);
};

describe('database schema', () => {
  it.each([
    ['up_users', ['up_users_email_idx', 'up_users_name_idx']],
    ['branchify_funnels', ['branchify_funnels_owner_idx', 'branchify_funnels_identifier_uq']],
    ['branchify_videos', ['branchify_videos_owner_idx']],
    ['branchify_subscriptions', ['branchify_subscriptions_user_idx', 'branchify_subscriptions_stripe_uq']],
    ['branchify_refresh_tokens', ['branchify_refresh_tokens_hash_uq', 'branchify_refresh_tokens_user_idx']],
    ['branchify_rate_limits', ['branchify_rate_limits_bucket_uq']],
    ['branchify_cache_versions', ['branchify_cache_versions_scope_uq']],
    ['branchify_stripe_events', ['branchify_stripe_events_event_uq']],
  ])('indexes %s for what is searched and joined', async (table, expected) => {
    expect(await indexesOf(table)).toEqual(expect.arrayContaining(expected));
  });

  it('has a table for every server-side entity', async () => {
    for (const table of [
      'branchify_plans',
      'branchify_subscriptions',
      'branchify_invoices',
      'branchify_videos',
      'branchify_funnels',
      'branchify_customization',
      'branchify_mailer_settings',
      'branchify_stripe_settings',
      'branchify_update_state',
      'branchify_password_resets',
      'branchify_mail_outbox',
      'branchify_funnel_views',
      'branchify_funnel_interactions',
    ]) {
      expect(await suite.db.schema.hasTable(table)).toBe(true);
    }
    for (const column of ['first_name', 'last_name', 'is_admin', 'status', 'status_note', 'email_verified_at', 'subscription_id', 'stripe_customer_id']) {
      expect(await suite.db.schema.hasColumn('up_users', column)).toBe(true);
    }
  });

  it('enforces unique event ids at the database level', async () => {
    const row = { event_id: `evt_${Date.now()}`, type: 'invoice.paid', document_id: `doc${Date.now()}`, created_at: new Date(), updated_at: new Date() };
    await suite.db('branchify_stripe_events').insert(row);
    const duplicate = await suite
      .db('branchify_stripe_events')
      .insert({ ...row, document_id: `${row.document_id}b` })
      .then(
        () => 'inserted',
        (error: Error) => error.message,
      );
    expect(duplicate).toMatch(/unique/i);
    expect(await suite.db('branchify_stripe_events').where({ event_id: row.event_id })).toHaveLength(1);
  });
});
