import { defineSchema, json, str, text } from '../define';

export default defineSchema({
  kind: 'singleType',
  collectionName: 'branchify_customization',
  singularName: 'customization',
  pluralName: 'customizations',
  displayName: 'App customization',
  attributes: {
    app_name: str(),
    app_description: text(),
    app_logo_url: text(),
    app_favicon_url: text(),
    app_support_url: text(),
    app_color_scheme: json(),
    app_email_templates: json(),
  },
});
