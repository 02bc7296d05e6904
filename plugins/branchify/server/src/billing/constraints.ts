import { env } from '@branchify/shared/node';
import { MONEY_COLUMN } from '../content-types/define';
import { rawRows } from '../utils/strapi';
import type { BillingContext } from './context';

const ONE_ACTIVE_INDEX = 'branchify_subscriptions_one_active_uq';

/**
 * The database's own guard: at most one active subscription per user (a partial unique index).
 * Also: invoice amounts hold three decimals (BHD, KWD…); a PostgreSQL column made with two
 * (Strapi's decimal before) is widened, which Strapi's schema sync does not do itself.
 */
export const ensureConstraints = async ({ strapi }: BillingContext): Promise<void> => {
  if (strapi.db.dialect.client === 'postgres') {
    const narrow = rawRows<{ column_name: string }>(
      await strapi.db.connection.raw(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = 'branchify_invoices' AND column_name IN ('amount', 'amount_refunded') AND numeric_scale < 3`,
        [env().DATABASE_SCHEMA],
      ),
    );
    for (const { column_name } of narrow) {
      await strapi.db.connection.raw(`ALTER TABLE branchify_invoices ALTER COLUMN ${column_name} TYPE numeric(${MONEY_COLUMN.join(', ')})`);
      strapi.log.info(`[billing] branchify_invoices.${column_name} now holds three decimals`);
    }
  }
  try {
    await strapi.db.connection.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ${ONE_ACTIVE_INDEX} ON branchify_subscriptions (user_id) WHERE status = 'active'`);
  } catch (error) {
    strapi.log.error(`[billing] could not add ${ONE_ACTIVE_INDEX} (users with two active subscriptions must be resolved first): ${(error as Error).message}`);
  }
};
