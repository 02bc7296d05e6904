import { defineSchema, str } from '../define';

/** One-time claims of an install (the first administrator): a unique name, inserted once. */
export default defineSchema({
  collectionName: 'branchify_install_claims',
  singularName: 'install-claim',
  pluralName: 'install-claims',
  displayName: 'Install claim',
  internal: true,
  attributes: {
    name: str({ required: true }),
  },
  indexes: [{ name: 'branchify_install_claims_name_uq', columns: ['name'], type: 'unique' }],
});
