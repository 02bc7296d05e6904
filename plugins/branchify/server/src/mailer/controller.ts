import { MESSAGES, mailerSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { unprocessable, validationError } from '../http/errors';
import { ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { PASSWORD_MASK } from '../utils/masked-secret';
import { openTransport, smtpErrorField, smtpErrorMessage } from './transport';
import { signedInUser } from '../http/request-state';

/** Transactional mailer settings, admin only. */
export default ({ strapi }: { strapi: Strapi }) => {
  const settings = () => getService(strapi, 'mailer-settings');

  return {
    async show(ctx: Context) {
      ok(ctx, await settings().publicView());
    },

    async update(ctx: Context) {
      const input = parse(mailerSchema, ctx.request.body);
      // Authentication needs a password: a new one, or the one already stored (the mask stands for it).
      const newPassword = Boolean(input.password) && input.password !== PASSWORD_MASK;
      if (input.username && !newPassword && !(await settings().hasPassword())) {
        throw validationError({ password: [MESSAGES.mailerPasswordRequired] });
      }
      await settings().save(input);
      strapi.log.info(`[mailer] admin ${signedInUser(ctx).id} updated the SMTP settings (${input.host}:${input.port})`);
      // Mail that waited for a mailer can go now.
      getService(strapi, 'mail-outbox').kick();
      ok(ctx, await settings().publicView(), MESSAGES.transactionalEmailUpdated);
    },

    /** Connects and authenticates with the saved settings; reports the server's own answer. */
    async verify(ctx: Context) {
      const current = await settings().current();
      if (!current) throw unprocessable(MESSAGES.mailerNotConfigured, { host: [MESSAGES.mailerNotConfigured] });
      const transport = openTransport(current);
      try {
        await transport.verify();
      } catch (error) {
        const message = smtpErrorMessage(error);
        strapi.log.info(`[mailer] SMTP verification failed: ${message}`);
        throw validationError({ [smtpErrorField(error)]: [message] }, message);
      } finally {
        transport.close();
      }
      await settings().markVerified();
      ok(ctx, await settings().publicView(), MESSAGES.transactionalEmailVerified);
    },
  };
};
