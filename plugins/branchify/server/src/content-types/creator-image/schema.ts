import { belongsToUser, defineSchema, int, str, text } from '../define';

/** Images a creator uploaded for branch buttons and overlays; removed with the account. */
export default defineSchema({
  collectionName: 'branchify_creator_images',
  singularName: 'creator-image',
  pluralName: 'creator-images',
  displayName: 'Creator image',
  internal: true,
  attributes: {
    owner_id: int({ required: true }),
    owner: belongsToUser('owner_id'),
    url: text({ required: true }),
    /** Bytes accepted (after SVG sanitising). */
    size: int({ required: true }),
    /** The upload plugin's file row, so its derived sizes go with it. */
    file_id: int(),
    /** Hex SHA-256 of the bytes an import embedded (imports reuse an image they stored before); null for uploads. */
    content_hash: str({ maxLength: 64 }),
  },
  indexes: [
    { name: 'branchify_creator_images_owner_idx', columns: ['owner_id', 'created_at'] },
    { name: 'branchify_creator_images_hash_idx', columns: ['owner_id', 'content_hash'] },
  ],
});
