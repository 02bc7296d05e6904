import { belongsToUser, defineSchema, int, json, str, text } from '../define';

export default defineSchema({
  collectionName: 'branchify_funnels',
  singularName: 'funnel',
  pluralName: 'funnels',
  displayName: 'Funnel',
  attributes: {
    owner_id: int({ required: true }),
    owner: belongsToUser('owner_id'),
    identifier: str({ required: true }),
    title: str({ required: true }),
    description: text(),
    settings: json(),
    videos: json(),
    /** The funnel's variables (declarations with defaults); NULL on funnels saved before they existed. */
    variables: json(),
    version: int({ default: 1 }),
  },
  indexes: [
    { name: 'branchify_funnels_owner_idx', columns: ['owner_id', 'created_at'] },
    { name: 'branchify_funnels_identifier_uq', columns: ['identifier'], type: 'unique' },
  ],
});
