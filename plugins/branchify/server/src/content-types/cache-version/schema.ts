import { bigint, defineSchema, str } from '../define';

export default defineSchema({
  collectionName: 'branchify_cache_versions',
  singularName: 'cache-version',
  pluralName: 'cache-versions',
  displayName: 'Cache version',
  description: 'Bumped with every write that per-process caches depend on; each process drops its cache when the number moves.',
  internal: true,
  attributes: {
    scope: str({ required: true }),
    version: bigint({ required: true, default: 0 }),
  },
  indexes: [{ name: 'branchify_cache_versions_scope_uq', columns: ['scope'], type: 'unique' }],
});
