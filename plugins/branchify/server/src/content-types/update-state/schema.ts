import { date, defineSchema, str, text } from '../define';

export default defineSchema({
  kind: 'singleType',
  collectionName: 'branchify_update_state',
  singularName: 'update-state',
  pluralName: 'update-states',
  displayName: 'Update and license',
  internal: true,
  attributes: {
    license_key_encrypted: text(),
    current_version: str(),
    latest_version: str(),
    checked_at: date(),
    downloaded_version: str(),
    downloaded_path: text(),
    applied_at: date(),
  },
});
