import { fieldMessages, messageTemplates } from '../messages';
import { CSS_VARIABLE_NAME, HEX_COLOR, RGB_COLORS, cssVariableName } from '../branding';
import { z } from 'zod';

/** A CSS value that cannot close the declaration or the style block it is written into. */
const SAFE_CSS_VALUE = /^[^;{}<>\\"'`]{1,100}$/;

const label = (name: string) => name.replace(/_/g, ' ');

const optionalText = (name: string, max: number) =>
  z
    .string({ message: fieldMessages.string(label(name)) })
    .trim()
    .max(max, { message: fieldMessages.max(label(name), max) })
    .nullish();

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** A link users follow: http(s) or mailto, never `javascript:`. */
const supportUrl = optionalText('app_support_url', 2000).refine((v) => !v || isHttpUrl(v) || /^mailto:[^\s]+@[^\s]+$/i.test(v), {
  message: 'The app support url must be an http(s) or mailto: link.',
});

/** Images are our own uploads (`/uploads/…`, from the upload endpoint) or an http(s) URL. */
const imageUrl = (name: string) =>
  optionalText(name, 2000).refine((v) => !v || isHttpUrl(v) || /^\/uploads\/[A-Za-z0-9._\-/]+$/.test(v), {
    message: `The ${label(name)} must be an http(s) URL or an uploaded image.`,
  });

/** A derived variant (`--primary-rgb`): served with the scheme, never stored. */
const isDerived = (key: string) => CSS_VARIABLE_NAME.test(key) && cssVariableName(key).endsWith('-rgb');

/**
 * CSS variables; the base colours are hex. Their `-rgb` variants are derived from them: a scheme
 * sent back as it was served may carry them, and they are dropped, whatever their value.
 */
const colorScheme = z
  .record(z.string(), z.string({ message: 'Each colour must be a string.' }))
  .transform((scheme) => Object.fromEntries(Object.entries(scheme).filter(([key]) => !isDerived(key))))
  .superRefine((scheme, ctx) => {
    const keys = Object.keys(scheme);
    if (keys.length > 50) ctx.addIssue({ code: 'custom', message: 'The colour scheme may hold at most 50 variables.' });
    for (const key of keys) {
      const value = scheme[key]!.trim();
      const name = cssVariableName(key);
      if (!CSS_VARIABLE_NAME.test(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} is not a valid CSS variable name.` });
      } else if ((RGB_COLORS as readonly string[]).includes(name.slice(2))) {
        if (!HEX_COLOR.test(value)) ctx.addIssue({ code: 'custom', path: [key], message: `${name} must be a hex colour such as #2f27ce.` });
      } else if (!SAFE_CSS_VALUE.test(value)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `${name} must be a plain CSS value (no ; { } < > quotes or backslashes).` });
      }
    }
  });

/**
 * Only the subject and body of a template are editable. Its `description`, `variables` and
 * defaults are served alongside (read-only, defined by the mailer) and ignored when sent back.
 */
const templateOverride = z
  .object({
    subject: z
      .string({ message: fieldMessages.string('subject') })
      .max(255, { message: fieldMessages.max('subject', 255) })
      .nullish(),
    body: z
      .string({ message: fieldMessages.string('body') })
      .max(50_000, { message: fieldMessages.max('body', 50_000) })
      .nullish(),
    description: z.unknown().optional(),
    variables: z.unknown().optional(),
    default_subject: z.unknown().optional(),
    default_body: z.unknown().optional(),
  })
  .strict()
  .transform(({ subject, body }) => ({ subject, body }))
  .nullable();

/** The mail templates an override may name and their placeholders (the mailer owns both). */
export interface EmailTemplateCatalogue {
  isTemplateKey(key: string): boolean;
  /** The placeholder names used in `text` that the template does not offer. */
  unknownPlaceholders(key: string, text: string): string[];
  /** The placeholders the template offers, as the admin sees them (`{{first_name}}`). */
  placeholders(key: string): readonly string[];
  /** The required placeholders (`{{reset_link}}`) that `body` leaves out. */
  missingRequired(key: string, body: string): string[];
}

const emailTemplates = (catalogue: EmailTemplateCatalogue) =>
  z.record(z.string(), templateOverride).superRefine((templates, ctx) => {
    for (const [key, value] of Object.entries(templates)) {
      if (!catalogue.isTemplateKey(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `There is no email template named ${key}.` });
        continue;
      }
      for (const part of ['subject', 'body'] as const) {
        const text = value?.[part];
        if (!text) continue;
        const unknown = catalogue.unknownPlaceholders(key, text);
        if (unknown.length) {
          ctx.addIssue({
            code: 'custom',
            path: [key, part],
            message: `This template has no ${unknown.map((u) => `{{${u}}}`).join(', ')}. Available: ${catalogue.placeholders(key).join(', ')}.`,
          });
        }
      }
      // An empty body is no override (the default, which has them all, is sent).
      const body = value?.body;
      if (!body || !body.trim()) continue;
      const missing = catalogue.missingRequired(key, body);
      if (missing.length) ctx.addIssue({ code: 'custom', path: [key, 'body'], message: messageTemplates.templateMissingRequired(missing) });
    }
  });

/** PUT customizations: branding, colours and mail template overrides, checked against the mailer's templates. */
export const customizationSchemaFor = (catalogue: EmailTemplateCatalogue) =>
  z.object({
    app_name: z
      .string({ message: fieldMessages.string('app name') })
      .trim()
      .min(1, { message: fieldMessages.required('app name') })
      .max(100, { message: fieldMessages.max('app name', 100) })
      .optional(),
    app_description: optionalText('app_description', 1000),
    app_logo_url: imageUrl('app_logo_url'),
    app_favicon_url: imageUrl('app_favicon_url'),
    app_support_url: supportUrl,
    app_color_scheme: colorScheme.optional(),
    app_email_templates: emailTemplates(catalogue).optional(),
  });

export type CustomizationBody = z.output<ReturnType<typeof customizationSchemaFor>>;

/** The app customization as GET customizations shows it. */
export interface CustomizationResource {
  app_name: string;
  app_description: string;
  app_logo_url: string | null;
  app_favicon_url: string | null;
  app_support_url: string | null;
  app_color_scheme: Record<string, string>;
  mailer_configured?: boolean;
}

/** A mail template as the admin view serves it: the editable subject and body, and what it offers. */
export interface EmailTemplateResource {
  subject: string;
  body: string;
  description: string;
  /** `required`: a body without it is refused (the mail would not do its job). */
  variables: Array<{ placeholder: string; description: string; required: boolean }>;
  /** What "Restore default" puts back. */
  default_subject: string;
  default_body: string;
}

/** GET admin/customizations: the public view plus the email templates. */
export interface AdminCustomizationResource extends CustomizationResource {
  app_email_templates: Record<string, EmailTemplateResource>;
  /** The largest logo or favicon the server stores (IMAGE_UPLOAD_MAX_KB), read-only. */
  image_upload_max_kb: number;
  created_at: string | null;
  updated_at: string | null;
}

/** POST admin/customizations/email-preview: one template as the editor holds it, rendered with sample values. */
export const emailPreviewSchemaFor = (catalogue: EmailTemplateCatalogue) =>
  z
    .object({
      template: z.string({ message: fieldMessages.required('template') }).refine((key) => catalogue.isTemplateKey(key), {
        message: fieldMessages.in('template'),
      }),
      subject: z
        .string({ message: fieldMessages.string('subject') })
        .max(255, { message: fieldMessages.max('subject', 255) })
        .default(''),
      body: z
        .string({ message: fieldMessages.string('body') })
        .max(50_000, { message: fieldMessages.max('body', 50_000) })
        .default(''),
      app_name: optionalText('app_name', 100),
    })
    .superRefine((value, ctx) => {
      if (!catalogue.isTemplateKey(value.template)) return;
      for (const part of ['subject', 'body'] as const) {
        const unknown = catalogue.unknownPlaceholders(value.template, value[part]);
        if (unknown.length) {
          ctx.addIssue({
            code: 'custom',
            path: [part],
            message: `This template has no ${unknown.map((u) => `{{${u}}}`).join(', ')}. Available: ${catalogue.placeholders(value.template).join(', ')}.`,
          });
        }
      }
    });

/** The rendered mail: the subject line, the HTML body and its plain-text part. */
export interface EmailPreviewResource {
  subject: string;
  html: string;
  text: string;
}
