import { bigint, defineSchema, int, str } from '../define';

export default defineSchema({
  collectionName: 'branchify_rate_limits',
  singularName: 'rate-limit',
  pluralName: 'rate-limits',
  displayName: 'Rate limit counter',
  internal: true,
  attributes: {
    bucket: str({ required: true }),
    window_start: bigint({ required: true }),
    hits: int({ required: true, default: 0 }),
  },
  indexes: [{ name: 'branchify_rate_limits_bucket_uq', columns: ['bucket'], type: 'unique' }],
});
