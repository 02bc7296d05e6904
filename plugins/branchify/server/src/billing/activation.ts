import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { USER_FIELDS } from '../users/present';
import { STILL_ACTIVE } from './policy';
import type { SubscriptionRow } from '../content-types/subscription';
import { durableTransaction } from '../utils/durable-transaction';

type RowData = Partial<Omit<SubscriptionRow, 'id'>> & Record<string, unknown>;

const subscriptions = (strapi: Strapi) => query(strapi, UID.subscription);

/** Queues the `new_subscription` mail; a failure to queue it never fails the billing write. */
const announce = async (strapi: Strapi, row: SubscriptionRow) => {
  try {
    const user = await query(strapi, UID.user).findOne({ where: { id: row.user_id }, select: [...USER_FIELDS] });
    const plan = await getService(strapi, 'plans').find(row.plan_id);
    if (user && plan) await getService(strapi, 'notifications').newSubscription(user, plan);
  } catch (error) {
    strapi.log.warn(`[billing] new subscription mail for subscription ${row.id} failed: ${(error as Error).message}`);
  }
};

const at = (v: string | Date | null) => (v ? new Date(v).toISOString() : null);

/** The `subscription.changed` webhook; a failure to queue it never fails the billing write. */
const changed = async (strapi: Strapi, row: SubscriptionRow, previousStatus: string | null) => {
  try {
    const webhooks = getService(strapi, 'webhooks');
    if (!(await webhooks.wants('subscription.changed'))) return;
    const user = await query(strapi, UID.user).findOne({ where: { id: row.user_id }, select: ['id', 'email'] });
    await webhooks.emit('subscription.changed', [
      {
        data: {
          subscription: {
            id: row.id,
            status: row.status,
            previous_status: previousStatus,
            plan_id: row.plan_id,
            managed_by: row.managed_by,
            started_at: at(row.started_at),
            renews_at: at(row.renews_at),
            canceled_at: at(row.canceled_at),
            cancel_at_period_end: Boolean(row.cancel_at_period_end),
          },
          user: user ? { id: user.id, email: user.email } : { id: row.user_id, email: null },
        },
      },
    ]);
  } catch (error) {
    strapi.log.warn(`[billing] subscription.changed webhook for subscription ${row.id} was not queued: ${(error as Error).message}`);
  }
};

/** Inserts a row; one inserted active is an activation. */
const create = async (strapi: Strapi, data: RowData): Promise<SubscriptionRow> => {
  if (data.status !== 'active') {
    const row = await subscriptions(strapi).create({ data });
    await changed(strapi, row, null);
    return row;
  }
  return durableTransaction(strapi, async () => {
    const row = await subscriptions(strapi).create({ data });
    await announce(strapi, row);
    await changed(strapi, row, null);
    return row;
  });
};

/** One write of `update`: the row, its new data, the guard, and the status it had before. */
interface Update {
  id: number;
  data: RowData;
  guard: Record<string, unknown>;
  previousStatus: string | null;
}

/** Any write but an activation. The status flips in one conditional UPDATE, so only its writer announces the change. */
const updateInactive = async (strapi: Strapi, { id, data, guard, previousStatus }: Update): Promise<SubscriptionRow | null> => {
  const read = () => subscriptions(strapi).findOne({ where: { id } });
  if (data.status !== undefined) {
    const flipped = await subscriptions(strapi).updateMany({ where: { $and: [{ id, ...guard }, { status: { $ne: data.status } }] }, data });
    if (flipped.count === 1) {
      const row = (await read())!;
      await changed(strapi, row, previousStatus);
      return row;
    }
  }
  const { count } = await subscriptions(strapi).updateMany({ where: { id, ...guard }, data });
  return count ? read() : null;
};

/** An activation: the writer whose conditional UPDATE flips the row announces it, in the same transaction. */
const activate = (strapi: Strapi, { id, data, guard, previousStatus }: Update): Promise<SubscriptionRow | null> => {
  const read = () => subscriptions(strapi).findOne({ where: { id } });
  return durableTransaction(strapi, async () => {
    const notYet: Record<string, unknown>[] = [{ status: { $notIn: [...STILL_ACTIVE] } }];
    if (data.plan_id !== undefined) notYet.push({ plan_id: { $ne: data.plan_id } });
    const flipped = await subscriptions(strapi).updateMany({ where: { $and: [{ id, ...guard }, { $or: notYet }] }, data });
    if (flipped.count === 1) {
      const row = (await read())!;
      await announce(strapi, row);
      await changed(strapi, row, previousStatus);
      return row;
    }
    const { count } = await subscriptions(strapi).updateMany({ where: { id, ...guard }, data });
    return count ? read() : null;
  });
};

/**
 * Updates a row (only where `guard` also holds, when given). Returns the row, or null when the
 * guard left it untouched.
 */
const update = async (strapi: Strapi, id: number, data: RowData, guard: Record<string, unknown> = {}): Promise<SubscriptionRow | null> => {
  const before = await subscriptions(strapi).findOne({ where: { id }, select: ['status'] });
  const write = { id, data, guard, previousStatus: before?.status ?? null };
  return data.status === 'active' ? activate(strapi, write) : updateInactive(strapi, write);
};

/**
 * Every write that changes a subscription's status goes through here. Each change is announced
 * once as a `subscription.changed` webhook (queued in the write's transaction when it has one).
 * Every write that can make a subscription active goes through here too. The row flips with a
 * conditional UPDATE (… WHERE status is not already active on that plan), so of all the writers
 * that observe the same activation (the API call, each webhook, a replay) exactly one sees its
 * update take and queues the `new_subscription` mail, in the same transaction as the flip.
 */
export const activations = (strapi: Strapi) => ({
  create: (data: RowData) => create(strapi, data),
  update: (id: number, data: RowData, guard?: Record<string, unknown>) => update(strapi, id, data, guard),
});
