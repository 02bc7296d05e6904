import type { TemplateOverrides } from '../../mailer/templates';
import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };

export interface CustomizationRow {
  id: number;
  app_name: string | null;
  app_description: string | null;
  app_logo_url: string | null;
  app_favicon_url: string | null;
  app_support_url: string | null;
  app_color_scheme: Record<string, string> | null;
  app_email_templates: TemplateOverrides | null;
  createdAt?: string | Date | null;
  updatedAt?: string | Date | null;
}
