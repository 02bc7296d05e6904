import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface SettingRow {
  id: number;
  name: string;
  value: string;
}
