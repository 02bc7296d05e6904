import { DEFAULT_APP_NAME, DEFAULT_COLOR_SCHEME } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { DEFAULT_TEMPLATES, effectiveTemplates, type TemplateKey, type TemplateOverrides } from '../mailer/templates';
import { getService } from '../utils/services';
import { query, UID, writeOnlyRow, type Strapi } from '../utils/strapi';
import { cssVariableName } from '@branchify/shared';
import { effectiveColorScheme } from './colors';
import type { CustomizationRow } from '../content-types/customization';

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

/** Colours compare case-insensitively (`#2F27CE` is `#2f27ce`). */
const sameValue = (a: string, b: string | undefined) => b !== undefined && a.toLowerCase() === b.toLowerCase();

/** JSON with sorted keys and empty maps as null, so two values compare by content (PostgreSQL's jsonb reorders keys). */
const canonical = (value: unknown): string => {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.length ? `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}` : 'null';
  }
  return JSON.stringify(value ?? null);
};

/** A stored column against a value about to be written. */
const sameStored = (stored: unknown, next: unknown): boolean => canonical(stored) === canonical(next);

const iso = (value: string | Date | null | undefined) => (value ? new Date(value).toISOString() : null);

type TemplateInput = NonNullable<CustomizationInput['app_email_templates']>;

const rows = (strapi: Strapi) => query(strapi, UID.customization);
const row = async (strapi: Strapi): Promise<CustomizationRow | null> => rows(strapi).findOne({});

const upsert = (strapi: Strapi, data: Record<string, unknown>) => writeOnlyRow(rows(strapi), data);

const base = (r: CustomizationRow | null) => ({
  app_name: r?.app_name || DEFAULT_APP_NAME,
  app_description: r?.app_description ?? '',
  app_logo_url: r?.app_logo_url ?? null,
  app_favicon_url: r?.app_favicon_url ?? null,
  app_support_url: r?.app_support_url ?? null,
  app_color_scheme: effectiveColorScheme(r?.app_color_scheme),
});

/** What every visitor's browser loads (branding, and whether the mail banner shows). */
const publicView = async (strapi: Strapi) => {
  const r = await row(strapi);
  const mailerConfigured = await getService(strapi, 'mailer-settings').configured();
  return { ...base(r), mailer_configured: mailerConfigured, created_at: iso(r?.createdAt), updated_at: iso(r?.updatedAt) };
};

/** The admin form: the public view plus the email templates with their variables. */
const adminView = async (strapi: Strapi) => {
  const r = await row(strapi);
  return {
    ...(await publicView(strapi)),
    app_email_templates: effectiveTemplates(r?.app_email_templates),
    // The logo and favicon limit, so the form refuses a file with the server's own sentence.
    image_upload_max_kb: env().IMAGE_UPLOAD_MAX_KB,
  };
};

/** The stored colour overrides with the input's applied: a colour equal to its default is no override. */
const mergeColorScheme = (stored: Record<string, string> | null | undefined, input: Record<string, string>) => {
  const merged: Record<string, string> = { ...(stored ?? {}) };
  for (const [key, raw] of Object.entries(input)) {
    const name = cssVariableName(key);
    const value = raw.trim();
    if (sameValue(value, DEFAULT_COLOR_SCHEME[name])) delete merged[name];
    else merged[name] = value;
  }
  return merged;
};

/** The stored template overrides with the input's applied: a subject or body equal to its default is no override. */
const mergeTemplates = (stored: TemplateOverrides | null | undefined, input: TemplateInput) => {
  const merged: TemplateOverrides = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(input) as Array<[TemplateKey, { subject?: string | null; body?: string | null } | null]>) {
    if (value === null) {
      delete merged[key];
      continue;
    }
    const own = { ...(merged[key] ?? {}) };
    for (const part of ['subject', 'body'] as const) {
      const text = value[part];
      if (text === undefined) continue;
      own[part] = text && text !== DEFAULT_TEMPLATES[key][part] ? text : null;
    }
    if (own.subject || own.body) merged[key] = own;
    else delete merged[key];
  }
  return merged;
};

/**
 * Stores what differs from the defaults: a value equal to its default (a scheme or template
 * sent back as it was served) is no override, so sending back the record changes nothing.
 */
const save = async (strapi: Strapi, input: CustomizationInput): Promise<void> => {
  const current = await row(strapi);
  const data: Record<string, unknown> = {};
  for (const key of ['app_name', 'app_description', 'app_logo_url', 'app_favicon_url', 'app_support_url'] as const) {
    if (input[key] === undefined) continue;
    const value = input[key] === '' ? null : input[key];
    data[key] = key === 'app_name' && value === DEFAULT_APP_NAME ? null : value;
  }
  if (input.app_color_scheme) data.app_color_scheme = mergeColorScheme(current?.app_color_scheme, input.app_color_scheme);
  if (input.app_email_templates) data.app_email_templates = mergeTemplates(current?.app_email_templates, input.app_email_templates);
  // Nothing changed: the row (and its updated_at) stays as it is.
  if (current && Object.entries(data).every(([key, value]) => sameStored(current[key as keyof CustomizationRow], value))) return;
  await upsert(strapi, data);
};

/** App customization: one row, defaults filled in on read. */
export default ({ strapi }: { strapi: Strapi }) => ({
  publicView: () => publicView(strapi),
  adminView: () => adminView(strapi),
  appName: async (): Promise<string> => (await row(strapi))?.app_name || DEFAULT_APP_NAME,
  templates: async () => effectiveTemplates((await row(strapi))?.app_email_templates),
  save: (input: CustomizationInput) => save(strapi, input),
  setImage: (field: 'app_logo_url' | 'app_favicon_url', url: string): Promise<void> => upsert(strapi, { [field]: url }),
});
