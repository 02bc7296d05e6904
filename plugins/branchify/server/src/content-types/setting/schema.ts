import { defineSchema, str, text } from '../define';

/** Values an install keeps once for all its processes (its install id), by a unique name. */
export default defineSchema({
  collectionName: 'branchify_settings',
  singularName: 'setting',
  pluralName: 'settings',
  displayName: 'Setting',
  internal: true,
  attributes: {
    name: str({ required: true }),
    value: text({ required: true }),
  },
  indexes: [{ name: 'branchify_settings_name_uq', columns: ['name'], type: 'unique' }],
});
