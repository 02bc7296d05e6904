import { MESSAGES } from '@branchify/shared';
import type { MultipartConfig } from '../middlewares/multipart';
import { ADMIN, route } from '../routes/define';
import { IMAGE_FIELDS } from './branding';
import { brandingImageRules } from './upload-store';

/** Logo and favicon: one file each, within IMAGE_UPLOAD_MAX_KB. */
const images: MultipartConfig = {
  fields: () => {
    const rules = brandingImageRules();
    const field = { maxBytes: rules.maxKb * 1024, maxFiles: 1, tooLarge: rules.tooLarge, tooMany: MESSAGES.oneImagePerField };
    return Object.fromEntries(Object.keys(IMAGE_FIELDS).map((name) => [name, field]));
  },
};

export default [
  route('GET', '/customizations', 'customizations.show'),
  route('GET', '/admin/customizations', 'customizations.adminShow', { auth: ADMIN }),
  route('POST', '/admin/customizations', 'customizations.update', { auth: ADMIN, multipart: images }),
  route('POST', '/admin/customizations/images', 'customizations.uploadImages', { auth: ADMIN, multipart: images }),
  route('POST', '/admin/customizations/email-preview', 'customizations.emailPreview', { auth: ADMIN }),
];
