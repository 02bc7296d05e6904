import { belongsToUser, date, defineSchema, int, str, text } from '../define';

export default defineSchema({
  collectionName: 'branchify_refresh_tokens',
  singularName: 'refresh-token',
  pluralName: 'refresh-tokens',
  displayName: 'Refresh token',
  internal: true,
  attributes: {
    user_id: int({ required: true }),
    user: belongsToUser('user_id'),
    token_hash: str({ required: true }),
    family: str({ required: true }),
    expires_at: date(),
    rotated_at: date(),
    revoked_at: date(),
    user_agent: text(),
    ip: str(),
  },
  indexes: [
    { name: 'branchify_refresh_tokens_hash_uq', columns: ['token_hash'], type: 'unique' },
    { name: 'branchify_refresh_tokens_user_idx', columns: ['user_id'] },
    { name: 'branchify_refresh_tokens_family_idx', columns: ['family'] },
  ],
});
