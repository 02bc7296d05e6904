import { MESSAGES, licenseKeySchema } from '@branchify/shared';
import type { Context } from 'koa';
import { ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { signedInUser } from '../http/request-state';

/** App updates and the license key, admin only. */
export default ({ strapi }: { strapi: Strapi }) => {
  const updates = () => getService(strapi, 'updates');

  return {
    async info(ctx: Context) {
      ok(ctx, await updates().info());
    },

    async isTokenRegistered(ctx: Context) {
      ok(ctx, { registered: await updates().isTokenRegistered() });
    },

    async saveLicenseKey(ctx: Context) {
      // The masked key `info` served, sent back: the stored key stays.
      const body = (ctx.request.body ?? {}) as { license_key?: unknown };
      const stored = await updates().maskedLicenseKey();
      if (stored && body.license_key === stored) return ok(ctx, { license_key: stored }, MESSAGES.licenseKeySaved);
      const { license_key } = parse(licenseKeySchema, ctx.request.body);
      const masked = await updates().saveLicenseKey(license_key);
      strapi.log.info(`[updates] admin ${signedInUser(ctx).id} saved a license key (${masked})`);
      ok(ctx, { license_key: masked }, MESSAGES.licenseKeySaved);
    },

    async download(ctx: Context) {
      const { version } = await updates().download();
      strapi.log.info(`[updates] admin ${signedInUser(ctx).id} downloaded ${version}`);
      ok(ctx, await updates().info(), MESSAGES.updateDownloaded);
    },

    async apply(ctx: Context) {
      const version = await updates().apply();
      strapi.log.info(`[updates] admin ${signedInUser(ctx).id} applied ${version}`);
      ok(ctx, await updates().info(), MESSAGES.appUpdated);
    },

    async updateApp(ctx: Context) {
      const version = await updates().updateApp();
      strapi.log.info(`[updates] admin ${signedInUser(ctx).id} updated the app to ${version}`);
      ok(ctx, await updates().info(), MESSAGES.appUpdated);
    },
  };
};
