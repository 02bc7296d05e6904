import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

/** The settings' table, for the queries that read and write it directly. */
export const SETTINGS_TABLE = schema.collectionName;

export interface SettingRow {
  id: number;
  name: string;
  value: string;
}
