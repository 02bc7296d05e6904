import { MESSAGES, fieldMessages } from '@branchify/shared';
import type { Context } from 'koa';
import { validationError } from '../http/errors';
import { ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { filesIn, storeImage, type IncomingFile } from './images';
import { isTemplateKey } from '../mailer/templates';
import { previewMail } from './preview';
import { customizationSchema, emailPreviewSchema } from './validators';

const IMAGE_FIELDS = { app_logo: 'app_logo_url', app_favicon: 'app_favicon_url' } as const;
type ImageField = keyof typeof IMAGE_FIELDS;

/** The uploaded files of a multipart request, one per image field. */
const imagesOf = (ctx: Context): Array<[ImageField, IncomingFile]> => {
  const out: Array<[ImageField, IncomingFile]> = [];
  for (const field of Object.keys(IMAGE_FIELDS) as ImageField[]) {
    const [file] = filesIn(ctx, field);
    if (file) out.push([field, file]);
  }
  return out;
};

/** A multipart form sends objects as JSON text; a JSON body sends them as objects. */
const decodeMultipart = (body: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...body };
  for (const key of ['app_color_scheme', 'app_email_templates']) {
    const value = out[key];
    if (typeof value !== 'string') continue;
    try {
      out[key] = value === '' ? undefined : JSON.parse(value);
    } catch {
      throw validationError({ [key]: [`The ${key.replace(/_/g, ' ')} field must be valid JSON.`] });
    }
  }
  for (const field of Object.keys(IMAGE_FIELDS)) delete out[field];
  return out;
};

/** App customization. */
export default ({ strapi }: { strapi: Strapi }) => {
  const customization = () => getService(strapi, 'customization');

  const saveImages = async (ctx: Context) => {
    for (const [field, file] of imagesOf(ctx)) {
      const { url } = await storeImage(strapi, field, file);
      await customization().setImage(IMAGE_FIELDS[field], url);
      strapi.log.info(`[customization] admin ${ctx.state.branchifyUser.id} uploaded ${field}`);
    }
  };

  return {
    /** Public: the branding every page loads, and whether the mail banner shows. */
    async show(ctx: Context) {
      ok(ctx, await customization().publicView());
    },

    async adminShow(ctx: Context) {
      ok(ctx, await customization().adminView());
    },

    /** JSON, or multipart with the same fields plus optional app_logo / app_favicon files. */
    async update(ctx: Context) {
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      const input = parse(customizationSchema, ctx.is('multipart') ? decodeMultipart(body) : body);
      await saveImages(ctx);
      await customization().save(input);
      strapi.log.info(`[customization] admin ${ctx.state.branchifyUser.id} updated the app customization`);
      ok(ctx, await customization().adminView(), MESSAGES.appCustomizationUpdated);
    },

    /** A template as the editor holds it (unsaved), rendered with sample values. */
    async emailPreview(ctx: Context) {
      const input = parse(emailPreviewSchema, ctx.request.body);
      if (!isTemplateKey(input.template)) throw validationError({ template: [fieldMessages.in('template')] });
      const appName = input.app_name || (await customization().appName());
      ok(ctx, previewMail(input.template, { subject: input.subject, body: input.body }, appName));
    },

    /** Multipart: app_logo and/or app_favicon. */
    async uploadImages(ctx: Context) {
      if (!imagesOf(ctx).length) throw validationError({ app_logo: [MESSAGES.imageRequired] });
      await saveImages(ctx);
      ok(ctx, await customization().adminView(), MESSAGES.appCustomizationUpdated);
    },
  };
};
