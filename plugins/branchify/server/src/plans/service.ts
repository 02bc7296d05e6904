import type { ListQuery } from '../http/paging';
import { query, UID, type OrderBy, type Strapi } from '../utils/strapi';
import type { PlanInput } from '@branchify/shared';
import type { PlanRow } from '../content-types/plan';

const SORT_COLUMNS: Record<string, string> = { id: 'id', name: 'name', price: 'price', sort_order: 'sort_order', created_at: 'createdAt' };
export const PLAN_SORTABLE = Object.keys(SORT_COLUMNS);

/** Plans: persistence only; Stripe mirroring happens in the billing service when a plan is sold. */
export default ({ strapi }: { strapi: Strapi }) => {
  const plans = () => query(strapi, UID.plan);
  return {
    async find(id: number): Promise<PlanRow | null> {
      return plans().findOne({ where: { id } });
    },

    async listActive(): Promise<PlanRow[]> {
      return plans().findMany({ where: { is_active: true }, orderBy: [{ sort_order: 'asc' }, { id: 'asc' }] });
    },

    async list(q: ListQuery): Promise<{ rows: PlanRow[]; total: number }> {
      const where = q.search ? { name: { $containsi: q.search } } : {};
      const orderBy: OrderBy<PlanRow> = q.sort ? { [SORT_COLUMNS[q.sort.field]!]: q.sort.order } : [{ sort_order: 'asc' }, { id: 'asc' }];
      const [rows, total] = await Promise.all([plans().findMany({ where, orderBy, limit: q.perPage, offset: q.offset }), plans().count({ where })]);
      return { rows, total };
    },

    async create(input: PlanInput): Promise<PlanRow> {
      return plans().create({ data: input });
    },

    /** A changed price, currency or schedule needs a new Stripe price (prices are immutable there). */
    async update(existing: PlanRow, input: PlanInput): Promise<PlanRow> {
      const repriced =
        Number(existing.price) !== Number(input.price) || existing.currency !== input.currency || existing.payment_schedule !== input.payment_schedule;
      return plans().update({
        where: { id: existing.id },
        data: { ...input, ...(repriced ? { stripe_price_id: null } : {}) },
      });
    },

    async setStripeIds(id: number, ids: { stripe_product_id?: string; stripe_price_id?: string }): Promise<void> {
      await plans().update({ where: { id }, data: ids });
    },

    async remove(id: number): Promise<void> {
      await plans().delete({ where: { id } });
    },
  };
};
