import type { EmailTemplateCatalogue, EmailTemplateResource } from '@branchify/shared';

/** The six editable templates, in the order the editor lists them, with the names it shows. */
export const TEMPLATE_LABELS: ReadonlyArray<[key: string, label: string]> = [
  ['password_reset', 'Password reset'],
  ['new_subscription', 'New subscription'],
  ['new_user_welcome', 'Welcome'],
  ['account_suspended', 'Account suspended'],
  ['subscription_renewal_failed', 'Renewal failed'],
  ['subscription_renewal_succeeded', 'Renewal succeeded'],
];

const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi;
const nameOf = (placeholder: string) => placeholder.replace(/[{}\s]/g, '');

/**
 * The templates' placeholders as the server served them, for the shared customization schema:
 * the form refuses a `{{placeholder}}` a template lacks with the server's own sentence.
 */
export const catalogueOf = (templates: Record<string, EmailTemplateResource>): EmailTemplateCatalogue => ({
  isTemplateKey: (key) => Object.prototype.hasOwnProperty.call(templates, key),
  placeholders: (key) => templates[key]?.variables.map((v) => v.placeholder) ?? [],
  missingRequired: (key, body) => {
    const used = new Set([...body.matchAll(PLACEHOLDER)].map((m) => m[1]));
    return (templates[key]?.variables ?? []).filter((v) => v.required && !used.has(nameOf(v.placeholder))).map((v) => v.placeholder);
  },
  unknownPlaceholders: (key, text) => {
    const known = new Set((templates[key]?.variables ?? []).map((v) => nameOf(v.placeholder)));
    const found = new Set<string>();
    for (const match of text.matchAll(PLACEHOLDER)) if (!known.has(match[1])) found.add(match[1]);
    return [...found];
  },
});
