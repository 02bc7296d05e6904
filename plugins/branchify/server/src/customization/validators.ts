import { customizationSchemaFor, emailPreviewSchemaFor, type EmailTemplateCatalogue } from '@branchify/shared';
import { DEFAULT_TEMPLATES, isTemplateKey, missingRequired, unknownPlaceholders } from '../mailer/templates';

/** The customization rules live in @branchify/shared; the mail templates they check against live with the mailer. */
const catalogue: EmailTemplateCatalogue = {
  isTemplateKey,
  unknownPlaceholders: (key, text) => (isTemplateKey(key) ? unknownPlaceholders(text, DEFAULT_TEMPLATES[key]) : []),
  placeholders: (key) => (isTemplateKey(key) ? DEFAULT_TEMPLATES[key].variables.map((v) => v.placeholder) : []),
  missingRequired: (key, body) => (isTemplateKey(key) ? missingRequired(body, DEFAULT_TEMPLATES[key]) : []),
};

export const customizationSchema = customizationSchemaFor(catalogue);
export const emailPreviewSchema = emailPreviewSchemaFor(catalogue);
