import { VIDEO_PROVIDERS } from '@branchify/shared';
import { belongsToUser, decimal, defineSchema, enumeration, int, str, text } from '../define';

export default defineSchema({
  collectionName: 'branchify_videos',
  singularName: 'video',
  pluralName: 'videos',
  displayName: 'Video',
  attributes: {
    owner_id: int({ required: true }),
    owner: belongsToUser('owner_id'),
    title: str({ required: true }),
    size: int({ default: 0 }),
    thumbnail: text(),
    duration: decimal(),
    provider: enumeration(VIDEO_PROVIDERS, { required: true }),
    external_id: str(),
    embed_url: text(),
    source: text(),
    source_url: text(),
  },
  indexes: [{ name: 'branchify_videos_owner_idx', columns: ['owner_id', 'created_at'] }],
});
