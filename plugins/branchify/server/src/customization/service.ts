import { DEFAULT_APP_NAME } from '@branchify/shared';
import { effectiveTemplates, type TemplateKey, type TemplateOverrides } from '../mailer/templates';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { effectiveColorScheme, variableName } from './colors';

export { DEFAULT_APP_NAME };

interface CustomizationRow {
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

export interface CustomizationInput {
  app_name?: string;
  app_description?: string | null;
  app_logo_url?: string | null;
  app_favicon_url?: string | null;
  app_support_url?: string | null;
  app_color_scheme?: Record<string, string>;
  /** Per template: a subject/body override, or null to go back to the default. */
  app_email_templates?: Partial<Record<TemplateKey, { subject?: string | null; body?: string | null } | null>>;
}

const iso = (value: string | Date | null | undefined) => (value ? new Date(value).toISOString() : null);

/** App customization: one row, defaults filled in on read. */
export default ({ strapi }: { strapi: Strapi }) => {
  const rows = () => query(strapi, UID.customization);
  const row = async (): Promise<CustomizationRow | null> => rows().findOne({});

  const upsert = async (data: Record<string, unknown>) => {
    const existing = await row();
    if (existing) await rows().update({ where: { id: existing.id }, data });
    else await rows().create({ data });
  };

  const base = (r: CustomizationRow | null) => ({
    app_name: r?.app_name || DEFAULT_APP_NAME,
    app_description: r?.app_description ?? '',
    app_logo_url: r?.app_logo_url ?? null,
    app_favicon_url: r?.app_favicon_url ?? null,
    app_support_url: r?.app_support_url ?? null,
    app_color_scheme: effectiveColorScheme(r?.app_color_scheme),
  });

  return {
    /** What every visitor's browser loads (branding, and whether the mail banner shows). */
    async publicView() {
      const r = await row();
      const mailerConfigured = await getService(strapi, 'mailer-settings').configured();
      return { ...base(r), mailer_configured: mailerConfigured, created_at: iso(r?.createdAt), updated_at: iso(r?.updatedAt) };
    },

    /** The admin form: the public view plus the email templates with their variables. */
    async adminView() {
      const r = await row();
      return {
        ...(await this.publicView()),
        app_email_templates: effectiveTemplates(r?.app_email_templates),
      };
    },

    async appName(): Promise<string> {
      return (await row())?.app_name || DEFAULT_APP_NAME;
    },

    async templates() {
      return effectiveTemplates((await row())?.app_email_templates);
    },

    async save(input: CustomizationInput): Promise<void> {
      const current = await row();
      const data: Record<string, unknown> = {};
      for (const key of ['app_name', 'app_description', 'app_logo_url', 'app_favicon_url', 'app_support_url'] as const) {
        if (input[key] !== undefined) data[key] = input[key] === '' ? null : input[key];
      }
      if (input.app_color_scheme) {
        const merged: Record<string, string> = { ...(current?.app_color_scheme ?? {}) };
        for (const [key, value] of Object.entries(input.app_color_scheme)) merged[variableName(key)] = value;
        data.app_color_scheme = merged;
      }
      if (input.app_email_templates) {
        const merged: TemplateOverrides = { ...(current?.app_email_templates ?? {}) };
        for (const [key, value] of Object.entries(input.app_email_templates) as Array<
          [TemplateKey, { subject?: string | null; body?: string | null } | null]
        >) {
          if (value === null) {
            delete merged[key];
            continue;
          }
          const own = { ...(merged[key] ?? {}) };
          if (value.subject !== undefined) own.subject = value.subject || null;
          if (value.body !== undefined) own.body = value.body || null;
          merged[key] = own;
        }
        data.app_email_templates = merged;
      }
      await upsert(data);
    },

    async setImage(field: 'app_logo_url' | 'app_favicon_url', url: string): Promise<void> {
      await upsert({ [field]: url });
    },
  };
};
