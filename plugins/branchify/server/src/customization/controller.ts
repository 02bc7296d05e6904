import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { validationError } from '../http/errors';
import { ok } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { IMAGE_FIELDS, type ImageField, type UploadedImages } from './branding';
import { filesIn } from './upload-store';
import { customizationSchema, emailPreviewSchema } from './validators';
import { signedInUser } from '../http/request-state';

/** The uploaded files of a multipart request, one per image field. */
const imagesOf = (ctx: Context): UploadedImages => {
  const out: UploadedImages = [];
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
  const branding = () => getService(strapi, 'customization-branding');

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
      ok(ctx, await branding().update(input, imagesOf(ctx), signedInUser(ctx).id), MESSAGES.appCustomizationUpdated);
    },

    async emailPreview(ctx: Context) {
      ok(ctx, await branding().preview(parse(emailPreviewSchema, ctx.request.body)));
    },

    /** Multipart: app_logo and/or app_favicon. */
    async uploadImages(ctx: Context) {
      ok(ctx, await branding().uploadImages(imagesOf(ctx), signedInUser(ctx).id), MESSAGES.appCustomizationUpdated);
    },
  };
};
