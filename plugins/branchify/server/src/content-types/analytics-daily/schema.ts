import { BRANCH_TARGET_MAX, ID_MAX } from '@branchify/shared';
import { bigint, defineSchema, int, ofFunnel, str, textOf } from '../define';

/** Per-day counters the analytics report sums, kept with the views and interactions they count. */
export default defineSchema({
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
});
