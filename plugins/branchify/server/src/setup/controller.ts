import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { conflict } from '../http/errors';
import { ok } from '../http/respond';
import type { Strapi } from '../utils/strapi';
import { dismissSetup, installStatus, setupStatus } from './status';
import { signedInUser } from '../http/request-state';

/** The first-run setup checklist the admin panel shows until an admin dismisses it. */
export default ({ strapi }: { strapi: Strapi }) => ({
  /** Public: whether the next account to register becomes the administrator (the login page's hint on a fresh install). */
  async install(ctx: Context) {
    ok(ctx, await installStatus(strapi));
  },

  async show(ctx: Context) {
    ok(ctx, await setupStatus(strapi));
  },

  /** Only a finished checklist can be dismissed: an unfinished one stays as a reminder. */
  async dismiss(ctx: Context) {
    const status = await setupStatus(strapi);
    if (!status.complete) throw conflict(MESSAGES.setupIncomplete);
    await dismissSetup(strapi);
    strapi.log.info(`[setup] admin ${signedInUser(ctx).id} dismissed the setup checklist`);
    ok(ctx, { ...status, dismissed: true }, MESSAGES.setupDismissed);
  },
});
