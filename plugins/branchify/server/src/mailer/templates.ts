import { DEFAULT_APP_NAME, DEFAULT_COLOR_SCHEME, HEX_COLOR } from '@branchify/shared';

/**
 * The product's email templates: defaults in code, admin
 * overrides (subject and body) stored in the customization's `app_email_templates`.
 * `{{variable}}` placeholders; values are HTML-escaped in the body. A mail is the body in a simple
 * layout carrying the app's name and primary colour; a link with `class="button"` is drawn as a button.
 */
interface TemplateVariable {
  placeholder: string;
  description: string;
  /** The mail does not do its job without it: a body that leaves it out is refused. */
  required: boolean;
}

export interface EmailTemplate {
  subject: string;
  body: string;
  description: string;
  variables: TemplateVariable[];
}

const TEMPLATE_KEYS = [
  'password_reset',
  'new_subscription',
  'new_user_welcome',
  'account_suspended',
  'subscription_renewal_failed',
  'subscription_renewal_succeeded',
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

/** Not one of the spec's editable templates: the verification mail has no admin-facing template. */
export type InternalTemplateKey = 'email_verification';

const USER_VARIABLES: TemplateVariable[] = [
  { placeholder: '{{first_name}}', description: "The user's first name", required: false },
  { placeholder: '{{last_name}}', description: "The user's last name", required: false },
  { placeholder: '{{email}}', description: "The user's email address", required: false },
];
const APP_VARIABLES: TemplateVariable[] = [
  { placeholder: '{{app_name}}', description: 'The application name (App customization)', required: false },
  { placeholder: '{{app_url}}', description: 'The address of the application', required: false },
];

const variables = (...extra: TemplateVariable[]) => [...USER_VARIABLES, ...extra, ...APP_VARIABLES];

const paragraph = (...lines: string[]) => lines.map((l) => `<p>${l}</p>`).join('\n');

/** A link drawn as a button (the layout gives it the app's colour), its label as the text part shows it. */
const button = (href: string, label: string) => `<a href="${href}" class="button">${label}</a>`;

export const DEFAULT_TEMPLATES: Record<TemplateKey, EmailTemplate> = {
  password_reset: {
    subject: 'Reset your {{app_name}} password',
    description: 'Sent when a user asks to reset a forgotten password.',
    // Without the link the user cannot reset the password at all.
    variables: variables({ placeholder: '{{reset_link}}', description: 'The link that opens the password reset page', required: true }),
    body: paragraph(
      'Hello {{first_name}} {{last_name}},',
      'We received a request to reset the password of your {{app_name}} account ({{email}}).',
      button('{{reset_link}}', 'Reset your password'),
      'If the button does not work, copy this address into your browser: {{reset_link}}',
      'If you did not ask for this, you can ignore this email; your password stays the same.',
    ),
  },
  new_subscription: {
    subject: 'Your {{subscription_plan}} subscription is active',
    description: 'Sent when a user starts a subscription plan.',
    variables: variables({ placeholder: '{{subscription_plan}}', description: 'The name of the subscribed plan', required: false }),
    body: paragraph(
      'Hello {{first_name}} {{last_name}},',
      'Thank you for subscribing to the {{subscription_plan}} plan on {{app_name}}.',
      'You can change or cancel your subscription at any time in your settings.',
      button('{{app_url}}/settings', 'Open your settings'),
    ),
  },
  new_user_welcome: {
    subject: 'Welcome to {{app_name}}',
    description: 'Sent when a new user has verified their email address.',
    variables: variables(),
    body: paragraph(
      'Hello {{first_name}} {{last_name}},',
      'Welcome to {{app_name}}! Your email address {{email}} is now verified.',
      'Sign in, choose a plan and create your first funnel to get started.',
      button('{{app_url}}/login', 'Sign in to {{app_name}}'),
    ),
  },
  account_suspended: {
    subject: 'Your {{app_name}} account has been suspended',
    description: 'Sent when an admin suspends a user account.',
    // A suspended user is always told why (the admin must give a reason to suspend).
    variables: variables({ placeholder: '{{reason}}', description: 'The reason the admin gave for the suspension', required: true }),
    body: paragraph(
      'Hello {{first_name}} {{last_name}},',
      'Your {{app_name}} account ({{email}}) has been suspended.',
      'Reason: {{reason}}',
      'While it is suspended you cannot sign in, and your funnels do not play.',
      'If you have questions, please contact support.',
    ),
  },
  subscription_renewal_failed: {
    subject: 'We could not renew your {{app_name}} subscription',
    description: 'Sent when the payment for a subscription renewal fails.',
    variables: variables(),
    body: paragraph(
      'Hello {{first_name}} {{last_name}},',
      'The payment for the renewal of your {{app_name}} subscription failed.',
      'Please sign in and add a new payment method in your settings to keep your funnels online.',
      button('{{app_url}}/settings', 'Update your payment method'),
    ),
  },
  subscription_renewal_succeeded: {
    subject: 'Your {{app_name}} subscription was renewed',
    description: 'Sent when a subscription renewal payment succeeds.',
    variables: variables(),
    body: paragraph('Hello {{first_name}} {{last_name}},', 'Your {{app_name}} subscription was renewed successfully. Thank you for staying with us.'),
  },
};

export const INTERNAL_TEMPLATES: Record<InternalTemplateKey, EmailTemplate> = {
  email_verification: {
    subject: 'Verify your {{app_name}} email address',
    description: 'Sent after registration and when a user asks for a new verification link.',
    variables: variables({ placeholder: '{{verification_link}}', description: 'The signed email verification link', required: true }),
    body: paragraph(
      'Hello {{first_name}} {{last_name}},',
      'Please confirm that {{email}} is your email address.',
      button('{{verification_link}}', 'Verify email address'),
      'If the button does not work, copy this address into your browser: {{verification_link}}',
    ),
  },
};

export const isTemplateKey = (key: string): key is TemplateKey => (TEMPLATE_KEYS as readonly string[]).includes(key);

/** An admin's stored override: only the subject and body are editable. */
export type TemplateOverrides = Partial<Record<TemplateKey, { subject?: string | null; body?: string | null }>>;

/** A template as the admin sees it: what is in effect, and the default "Restore default" goes back to. */
export interface EffectiveTemplate extends EmailTemplate {
  default_subject: string;
  default_body: string;
}

/** The six templates as the admin sees them: defaults with any stored override applied. */
export const effectiveTemplates = (overrides: unknown): Record<TemplateKey, EffectiveTemplate> => {
  const stored = (overrides && typeof overrides === 'object' ? overrides : {}) as TemplateOverrides;
  const out = {} as Record<TemplateKey, EffectiveTemplate>;
  for (const key of TEMPLATE_KEYS) {
    const base = DEFAULT_TEMPLATES[key];
    const own = stored[key];
    out[key] = {
      ...base,
      variables: base.variables.map((v) => ({ ...v })),
      subject: typeof own?.subject === 'string' && own.subject.trim() ? own.subject : base.subject,
      body: typeof own?.body === 'string' && own.body.trim() ? own.body : base.body,
      default_subject: base.subject,
      default_body: base.body,
    };
  }
  return out;
};

const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi;

/** The placeholders a text uses that the template does not provide (for validation). */
export const unknownPlaceholders = (text: string, template: EmailTemplate): string[] => {
  const known = new Set(template.variables.map((v) => v.placeholder.replace(/[{}\s]/g, '')));
  const found = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) if (!known.has(match[1]!)) found.add(match[1]!);
  return [...found];
};

/** The required placeholders a body leaves out (a template is refused without them). */
export const missingRequired = (body: string, template: EmailTemplate): string[] => {
  const used = new Set([...body.matchAll(PLACEHOLDER)].map((m) => m[1]!));
  return template.variables.filter((v) => v.required && !used.has(v.placeholder.replace(/[{}\s]/g, ''))).map((v) => v.placeholder);
};

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const fill = (text: string, values: Record<string, string>, encode: (v: string) => string) =>
  text.replace(PLACEHOLDER, (whole, name: string) => (name in values ? encode(values[name]!) : whole));

/** Plain-text alternative of the rendered HTML (what text-only mail clients show). */
const toText = (html: string): string =>
  html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, '\n')
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gi, '$2 ($1)')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/**
 * Fills a template. Body values are HTML-escaped (a name like `<b>` arrives as text); the subject
 * is a header, so values go in as plain text with line breaks removed.
 */
export const render = (template: Pick<EmailTemplate, 'subject' | 'body'>, values: Record<string, string>): RenderedMail => {
  const html = fill(template.body, values, escapeHtml);
  const subject = fill(template.subject, values, (v) => v.replace(/[\r\n]+/g, ' '))
    .replace(/[\r\n]+/g, ' ')
    .trim();
  return { subject, html, text: toText(html) };
};

/** What a mail's layout shows of the app's branding. */
export interface MailBrand {
  name: string;
  /** The primary colour (`#rgb` or `#rrggbb`); another value falls back to the default. */
  color: string;
}

const FONT = 'Arial, Helvetica, sans-serif';
const TEXT_COLOR = '#1f1f1f';
const MUTED_COLOR = '#5f5f6b';

/** `#rgb` as `#rrggbb`; a value that is no colour is the default primary. */
const hexColor = (value: string): string => {
  const color = HEX_COLOR.test(value) ? value.toLowerCase() : DEFAULT_COLOR_SCHEME['--primary']!;
  return color.length === 4 ? `#${[...color.slice(1)].map((c) => c + c).join('')}` : color;
};

/** WCAG relative luminance of a `#rrggbb` colour. */
const luminance = (hex: string): number => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};

/** White or near-black, whichever reads better on the colour (the larger contrast ratio). */
const textOn = (hex: string): string => {
  const l = luminance(hex);
  return (1 + 0.05) / (l + 0.05) >= (l + 0.05) / (luminance('#050315') + 0.05) ? '#ffffff' : '#050315';
};

/** Each `<a … class="button">` with a button's inline style (mail clients ignore most style sheets). */
const styleButtons = (html: string, color: string): string => {
  const style =
    `display: inline-block; padding: 12px 24px; border-radius: 6px; background-color: ${color}; color: ${textOn(color)}; ` +
    `font: bold 16px/1.25 ${FONT}; text-decoration: none;`;
  return html.replace(/<a\b([^>]*?)\bclass="([^"]*)"([^>]*)>/gi, (tag, before: string, classes: string, after: string) =>
    classes.split(/\s+/).includes('button') && !/\bstyle=/i.test(before + after) ? `<a${before}class="${classes}" style="${style}"${after}>` : tag,
  );
};

/**
 * The body in a simple layout that mail clients draw alike: a centred card under a bar of the
 * app's colour, its name as the heading, and the body's text at a readable size.
 */
const layout = (body: string, subject: string, brand: MailBrand): string => {
  const color = hexColor(brand.color);
  const name = escapeHtml(brand.name || DEFAULT_APP_NAME);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin: 0; padding: 0; background-color: #f4f4f7;">
<div role="article" aria-roledescription="email" aria-label="${escapeHtml(subject)}" lang="en" style="background-color: #f4f4f7; padding: 24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width: 560px; margin: 0 auto; background-color: #ffffff; border-top: 6px solid ${color}; border-radius: 8px;">
<tr><td style="padding: 24px 32px 0; font: bold 20px/1.3 ${FONT}; color: ${TEXT_COLOR};">${name}</td></tr>
<tr><td style="padding: 8px 32px 32px; font: 16px/1.5 ${FONT}; color: ${TEXT_COLOR};">
${styleButtons(body, color)}
</td></tr>
</table>
<p style="max-width: 560px; margin: 16px auto 0; font: 13px/1.5 ${FONT}; color: ${MUTED_COLOR}; text-align: center;">This email was sent by ${name}.</p>
</div>
</body>
</html>
`;
};

/**
 * A mail as users receive it: the template filled in (see `render`), its HTML in the branded
 * layout, and the plain-text alternative of the body (each link's label followed by its address).
 */
export const renderMail = (template: Pick<EmailTemplate, 'subject' | 'body'>, values: Record<string, string>, brand: MailBrand): RenderedMail => {
  const mail = render(template, values);
  return { ...mail, html: layout(mail.html, mail.subject, brand), text: `${mail.text}\n\nThis email was sent by ${brand.name || DEFAULT_APP_NAME}.` };
};
