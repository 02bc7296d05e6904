import { belongsTo, belongsToUser, defineSchema, int } from '../define';
import { UID } from '../uids';

/** Which library videos a funnel uses (rewritten on every save): total_funnels and safe deletes. */
export default defineSchema({
  collectionName: 'branchify_funnel_videos',
  singularName: 'funnel-video',
  pluralName: 'funnel-videos',
  displayName: 'Funnel video link',
  internal: true,
  attributes: {
    funnel_id: int({ required: true }),
    video_id: int({ required: true }),
    owner_id: int({ required: true }),
    funnel: belongsTo(UID.funnel, 'funnel_id'),
    video: belongsTo(UID.video, 'video_id'),
    owner: belongsToUser('owner_id'),
  },
  indexes: [
    { name: 'branchify_funnel_videos_pair_uq', columns: ['funnel_id', 'video_id'], type: 'unique' },
    { name: 'branchify_funnel_videos_video_idx', columns: ['video_id'] },
  ],
});
