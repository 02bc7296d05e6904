import type { Knex } from 'knex';
import { rawRows } from '../utils/strapi';

/**
 * References between our tables, enforced by the database (PostgreSQL here, SQLite in
 * foreign-keys-sqlite.ts). Strapi's schema keeps ids as integer
 * columns (our queries join on them); the database refuses a row pointing at nothing and decides
 * what a delete does to the rows that point at it:
 * - cascade: the row belongs to its parent (a user's funnels, a funnel's analytics);
 * - restrict: the parent cannot go while used (a plan with subscriptions, a video a funnel uses);
 * - set null: the reference is only a pointer (a user's current subscription).
 */
export interface ForeignKey {
  table: string;
  column: string;
  references: string;
  onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL';
}

const USERS = 'up_users';

export const FOREIGN_KEYS: readonly ForeignKey[] = [
  { table: 'branchify_subscriptions', column: 'user_id', references: USERS, onDelete: 'CASCADE' },
  { table: 'branchify_subscriptions', column: 'plan_id', references: 'branchify_plans', onDelete: 'RESTRICT' },
  { table: 'branchify_invoices', column: 'user_id', references: USERS, onDelete: 'CASCADE' },
  { table: 'branchify_invoices', column: 'subscription_id', references: 'branchify_subscriptions', onDelete: 'SET NULL' },
  { table: USERS, column: 'subscription_id', references: 'branchify_subscriptions', onDelete: 'SET NULL' },
  { table: 'branchify_videos', column: 'owner_id', references: USERS, onDelete: 'CASCADE' },
  { table: 'branchify_funnels', column: 'owner_id', references: USERS, onDelete: 'CASCADE' },
  { table: 'branchify_funnel_videos', column: 'funnel_id', references: 'branchify_funnels', onDelete: 'CASCADE' },
  { table: 'branchify_funnel_videos', column: 'video_id', references: 'branchify_videos', onDelete: 'RESTRICT' },
  { table: 'branchify_funnel_videos', column: 'owner_id', references: USERS, onDelete: 'CASCADE' },
  { table: 'branchify_creator_images', column: 'owner_id', references: USERS, onDelete: 'CASCADE' },
  { table: 'branchify_caption_tracks', column: 'owner_id', references: USERS, onDelete: 'CASCADE' },
  { table: 'branchify_caption_tracks', column: 'video_id', references: 'branchify_videos', onDelete: 'CASCADE' },
  { table: 'branchify_refresh_tokens', column: 'user_id', references: USERS, onDelete: 'CASCADE' },
  { table: 'branchify_password_resets', column: 'user_id', references: USERS, onDelete: 'CASCADE' },
  { table: 'branchify_funnel_views', column: 'funnel_id', references: 'branchify_funnels', onDelete: 'CASCADE' },
  { table: 'branchify_funnel_interactions', column: 'funnel_id', references: 'branchify_funnels', onDelete: 'CASCADE' },
  { table: 'branchify_analytics_daily', column: 'funnel_id', references: 'branchify_funnels', onDelete: 'CASCADE' },
  { table: 'branchify_analytics_marks', column: 'funnel_id', references: 'branchify_funnels', onDelete: 'CASCADE' },
];

export const foreignKeyName = (fk: ForeignKey): string => `${fk.table}_${fk.column}_fk`.slice(0, 63);

export interface ForeignKeyReport {
  added: string[];
  /** Added for new rows, but existing rows point at nothing (named for the operator to clean up). */
  unvalidated: string[];
}

/**
 * Adds the missing foreign keys (PostgreSQL). Each is added NOT VALID — new rows are checked at
 * once, without a long lock — then validated; rows a database already holds that point at nothing
 * leave it unvalidated and logged, never lost.
 */
export const ensureForeignKeys = (db: Knex, schema: string): Promise<ForeignKeyReport> =>
  // One process at a time: the others find the keys in place.
  db.transaction(async (knex) => {
    await knex.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`${schema}:branchify:foreign-keys`]);
    const existing = new Set(
      rawRows<{ conname: string }>(
        await knex.raw(`SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = ? AND c.contype = 'f'`, [schema]),
      ).map((r) => r.conname),
    );
    const unvalidated = new Set(
      rawRows<{ conname: string }>(
        await knex.raw(
          `SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = ? AND c.contype = 'f' AND NOT c.convalidated`,
          [schema],
        ),
      ).map((r) => r.conname),
    );
    const report: ForeignKeyReport = { added: [], unvalidated: [] };
    for (const fk of FOREIGN_KEYS) {
      const name = foreignKeyName(fk);
      if (!existing.has(name)) {
        await knex.raw(`ALTER TABLE ?? ADD CONSTRAINT ?? FOREIGN KEY (??) REFERENCES ?? (id) ON DELETE ${fk.onDelete} NOT VALID`, [
          fk.table,
          name,
          fk.column,
          fk.references,
        ]);
        report.added.push(name);
      } else if (!unvalidated.has(name)) continue;
      await knex.raw('SAVEPOINT validate_fk');
      try {
        await knex.raw('ALTER TABLE ?? VALIDATE CONSTRAINT ??', [fk.table, name]);
        await knex.raw('RELEASE SAVEPOINT validate_fk');
      } catch {
        await knex.raw('ROLLBACK TO SAVEPOINT validate_fk');
        report.unvalidated.push(name);
      }
    }
    return report;
  });
