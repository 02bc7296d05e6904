import { belongsToUser, date, defineSchema, int, str } from '../define';

export default defineSchema({
  collectionName: 'branchify_password_resets',
  singularName: 'password-reset',
  pluralName: 'password-resets',
  displayName: 'Password reset',
  internal: true,
  attributes: {
    user_id: int({ required: true }),
    user: belongsToUser('user_id'),
    token_hash: str({ required: true }),
    expires_at: date(),
    used_at: date(),
  },
  indexes: [
    { name: 'branchify_password_resets_hash_uq', columns: ['token_hash'], type: 'unique' },
    { name: 'branchify_password_resets_user_idx', columns: ['user_id'] },
  ],
});
