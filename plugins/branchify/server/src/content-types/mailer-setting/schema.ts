import { date, defineSchema, int, str, text } from '../define';

export default defineSchema({
  kind: 'singleType',
  collectionName: 'branchify_mailer_settings',
  singularName: 'mailer-setting',
  pluralName: 'mailer-settings',
  displayName: 'Mailer settings',
  internal: true,
  attributes: {
    host: str(),
    port: int(),
    encryption: str(),
    username: str(),
    password_encrypted: text(),
    from_address: str(),
    from_name: str(),
    verified_at: date(),
  },
});
