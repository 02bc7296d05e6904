import { env } from '@branchify/shared/node';
import { INTERNAL_TEMPLATES, renderMail, type EmailTemplate, type InternalTemplateKey, type TemplateKey } from '../mailer/templates';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { UserRecord } from '../content-types/users-permissions';

/**
 * What the product tells a user by email: the one hook the other domains call. With a mailer
 * configured, the template (with the admin's overrides) is rendered and put in the outbox;
 * without one, links are written to the server log so a local install stays usable.
 * Every function is a closure (callers may invoke them unbound).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const userValues = (user: UserRecord) => ({
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    email: user.email,
  });

  /** Queues the mail; false when no mailer is configured (the caller logs its fallback). */
  const send = async (user: UserRecord, key: TemplateKey | InternalTemplateKey, extra: Record<string, string> = {}): Promise<boolean> => {
    if (!(await getService(strapi, 'mailer-settings').configured())) return false;
    const customization = getService(strapi, 'customization');
    const template: EmailTemplate = key === 'email_verification' ? INTERNAL_TEMPLATES[key] : (await customization.templates())[key];
    const { app_name, app_color_scheme } = await customization.publicView();
    const app_url = env().PUBLIC_URL.replace(/\/$/, '');
    const mail = renderMail(template, { ...userValues(user), ...extra, app_name, app_url }, { name: app_name, color: app_color_scheme['--primary'] ?? '' });
    const id = await getService(strapi, 'mail-outbox').enqueue({ to: user.email, template: key, ...mail });
    strapi.log.info(`[mail] queued ${key} #${id} for user ${user.id}`);
    return true;
  };

  /**
   * Without a mailer, a local install still needs its links: they go to the log, except in
   * production, where a log is read by more people than the link's owner.
   */
  const logLink = (user: UserRecord, kind: string, url: string) => {
    if (env().NODE_ENV === 'production') strapi.log.warn(`[mail] no mailer configured: ${kind.toLowerCase()} link for user ${user.id} not sent`);
    else strapi.log.info(`[mail] ${kind} link for ${user.email}: ${url}`);
  };

  const notice = (key: TemplateKey) => async (user: UserRecord) => {
    if (!(await send(user, key))) strapi.log.info(`[mail] no mailer configured: ${key} not sent to user ${user.id}`);
  };

  return {
    verificationLink: async (user: UserRecord, url: string): Promise<void> => {
      if (!(await send(user, 'email_verification', { verification_link: url }))) logLink(user, 'Email verification', url);
    },

    passwordResetLink: async (user: UserRecord, url: string): Promise<void> => {
      if (!(await send(user, 'password_reset', { reset_link: url }))) logLink(user, 'Password reset', url);
    },

    welcome: notice('new_user_welcome'),

    accountSuspended: async (user: UserRecord, reason: string): Promise<void> => {
      if (!(await send(user, 'account_suspended', { reason }))) {
        strapi.log.info(`[mail] no mailer configured: account_suspended not sent to user ${user.id} (reason: ${reason.length} characters)`);
      }
    },

    newSubscription: async (user: UserRecord, plan: { name?: string | null }): Promise<void> => {
      if (!(await send(user, 'new_subscription', { subscription_plan: plan?.name ?? '' }))) {
        strapi.log.info(`[mail] no mailer configured: new_subscription not sent to user ${user.id}`);
      }
    },

    subscriptionRenewalFailed: notice('subscription_renewal_failed'),
    subscriptionRenewalSucceeded: notice('subscription_renewal_succeeded'),
  };
};
