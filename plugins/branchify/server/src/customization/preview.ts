import { env } from '@branchify/shared/node';
import { DEFAULT_TEMPLATES, renderMail, type MailBrand, type RenderedMail, type TemplateKey } from '../mailer/templates';

/** What the preview fills each placeholder with: a plausible user, plan and link. */
const sampleValues = (appName: string): Record<string, string> => {
  const base = env().PUBLIC_URL.replace(/\/$/, '');
  return {
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.com',
    app_name: appName,
    app_url: base,
    reset_link: `${base}/password-reset?token=sample-token&email=jane.doe%40example.com`,
    subscription_plan: 'Pro',
    reason: 'Repeated violations of the terms of service.',
  };
};

/**
 * The mail a template produces, rendered by the renderer the outbox is fed with, so what the
 * admin previews is what users receive. Every placeholder the template offers gets a sample.
 */
export const previewMail = (key: TemplateKey, template: { subject: string; body: string }, brand: MailBrand): RenderedMail => {
  const samples = sampleValues(brand.name);
  const values: Record<string, string> = {};
  for (const variable of DEFAULT_TEMPLATES[key].variables) {
    const name = variable.placeholder.replace(/[{}\s]/g, '');
    values[name] = samples[name] ?? `[${name}]`;
  }
  return renderMail(template, values, brand);
};
