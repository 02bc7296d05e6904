import { MESSAGES, fieldMessages } from '@branchify/shared';
import type { z } from 'zod';
import { validationError } from '../http/errors';
import { isTemplateKey, type RenderedMail } from '../mailer/templates';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { storeImage, type IncomingFile } from './upload-store';
import { previewMail } from './preview';
import type { CustomizationInput } from './service';
import type { emailPreviewSchema } from './validators';

/** The image fields a form may send, and the setting each one's URL is stored in. */
export const IMAGE_FIELDS = { app_logo: 'app_logo_url', app_favicon: 'app_favicon_url' } as const;
export type ImageField = keyof typeof IMAGE_FIELDS;
export type UploadedImages = Array<[ImageField, IncomingFile]>;
type EmailPreview = z.output<typeof emailPreviewSchema>;

/** What an admin does to the app's branding and mail templates, one use-case per function. */
export default ({ strapi }: { strapi: Strapi }) => {
  const customization = () => getService(strapi, 'customization');

  const saveImages = async (images: UploadedImages, actorId: number) => {
    for (const [field, file] of images) {
      const { url } = await storeImage(strapi, field, file);
      await customization().setImage(IMAGE_FIELDS[field], url);
      strapi.log.info(`[customization] admin ${actorId} uploaded ${field}`);
    }
  };

  return {
    /** The settings with any images sent alongside (an image sent wins over its URL field); answers the admin view. */
    async update(input: CustomizationInput, images: UploadedImages, actorId: number) {
      const settings = { ...input };
      for (const [field] of images) delete settings[IMAGE_FIELDS[field]];
      await saveImages(images, actorId);
      await customization().save(settings);
      strapi.log.info(`[customization] admin ${actorId} updated the app customization`);
      return customization().adminView();
    },

    /** At least one image; answers the admin view. */
    async uploadImages(images: UploadedImages, actorId: number) {
      if (!images.length) throw validationError({ app_logo: [MESSAGES.imageRequired] });
      await saveImages(images, actorId);
      return customization().adminView();
    },

    /** A template as the editor holds it (unsaved), rendered with sample values. */
    async preview(input: EmailPreview): Promise<RenderedMail> {
      if (!isTemplateKey(input.template)) throw validationError({ template: [fieldMessages.in('template')] });
      const saved = await customization().publicView();
      const brand = { name: input.app_name || saved.app_name, color: saved.app_color_scheme['--primary'] ?? '' };
      return previewMail(input.template, { subject: input.subject, body: input.body }, brand);
    },
  };
};
