import { MESSAGES, planSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { notFound } from '../http/errors';
import { pageMeta, readListQuery } from '../http/paging';
import { routeId } from '../http/params';
import { created, ok, paged } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { presentAdminPlan, presentPlan } from './present';
import { PLAN_SORTABLE } from './service';
import type { PlanRow } from '../content-types/plan';
import { signedInUser } from '../http/request-state';

/**
 * Plans. The admin endpoints accept back the record they served: the body is read through the
 * plan schema, which keeps only the plan's own fields (derived and read-only fields such as id,
 * price_display, subscriber_count, payment_ready, timestamps or Stripe ids are dropped).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const plans = () => getService(strapi, 'plans');
  const catalogue = () => getService(strapi, 'plan-catalogue');
  const load = async (ctx: Context) => {
    const plan = await plans().find(routeId(ctx));
    if (!plan) throw notFound();
    return plan;
  };

  /** The admin view of some plans: one read of the Stripe settings for all of them. */
  const forAdmin = async (rows: PlanRow[]) => {
    const paymentsConfigured = await getService(strapi, 'stripe-settings').ready();
    const counts = await getService(strapi, 'billing').subscriberCounts(rows.map((r) => r.id));
    return rows.map((row) => presentAdminPlan(row, { subscriberCount: counts.get(row.id) ?? 0, paymentsConfigured }));
  };
  const oneForAdmin = async (row: PlanRow) => (await forAdmin([row]))[0]!;

  return {
    /** Public: the plans a visitor can choose from; paid ones only while payments can work. */
    async publicIndex(ctx: Context) {
      ok(ctx, (await catalogue().offered()).map(presentPlan));
    },

    async index(ctx: Context) {
      const q = readListQuery(ctx.query, PLAN_SORTABLE);
      const { rows, total } = await plans().list(q);
      paged(ctx, await forAdmin(rows), pageMeta(q, total), 'plans');
    },

    async show(ctx: Context) {
      ok(ctx, await oneForAdmin(await load(ctx)));
    },

    async create(ctx: Context) {
      const plan = await catalogue().create(parse(planSchema, ctx.request.body), signedInUser(ctx).id);
      created(ctx, await oneForAdmin(plan), MESSAGES.planCreated);
    },

    async update(ctx: Context) {
      const existing = await load(ctx);
      const plan = await catalogue().update(existing, parse(planSchema, ctx.request.body));
      ok(ctx, await oneForAdmin(plan), MESSAGES.planUpdated);
    },

    async destroy(ctx: Context) {
      await catalogue().remove(await load(ctx));
      ok(ctx, null, MESSAGES.planDeleted);
    },
  };
};
