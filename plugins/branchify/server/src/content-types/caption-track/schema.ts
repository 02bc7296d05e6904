import { CAPTION_LIMITS } from '@branchify/shared';
import { belongsTo, belongsToUser, defineSchema, int, str, text } from '../define';
import { UID } from '../uids';

/** A library video's WebVTT caption track (checked and stored as plain WebVTT); removed with the video. */
export default defineSchema({
  collectionName: 'branchify_caption_tracks',
  singularName: 'caption-track',
  pluralName: 'caption-tracks',
  displayName: 'Caption track',
  internal: true,
  attributes: {
    owner_id: int({ required: true }),
    video_id: int({ required: true }),
    owner: belongsToUser('owner_id'),
    video: belongsTo(UID.video, 'video_id'),
    /** The unguessable part of the file's public URL. */
    key: str({ required: true, maxLength: 64 }),
    /** BCP-47, canonical case. */
    language: str({ required: true, maxLength: 35 }),
    label: str({ required: true, maxLength: CAPTION_LIMITS.maxLabelLength }),
    /** The WebVTT file as served. */
    content: text({ required: true }),
    size: int({ required: true }),
    cues: int({ required: true }),
  },
  indexes: [
    { name: 'branchify_caption_tracks_key_uq', columns: ['key'], type: 'unique' },
    { name: 'branchify_caption_tracks_language_uq', columns: ['video_id', 'language'], type: 'unique' },
    { name: 'branchify_caption_tracks_owner_idx', columns: ['owner_id'] },
  ],
});
