import { MESSAGES } from '@branchify/shared';
import { route } from '../routes/define';
import { BRANCH_IMAGE_RULES, IMAGE_FIELD, IMAGE_UPLOAD_LIMIT } from './service';

export default [
  // Who may add a video may add an image; uploads cost disk and image processing, so each account
  // and address has a budget per window. One image, read only once the caller passed both.
  route('POST', '/uploads/images', 'uploads.images', {
    auth: { verified: true },
    rateLimit: { name: IMAGE_UPLOAD_LIMIT, account: 'user', budget: 'upload' },
    multipart: {
      fields: () => ({
        [IMAGE_FIELD]: { maxBytes: BRANCH_IMAGE_RULES.maxKb * 1024, maxFiles: 1, tooLarge: BRANCH_IMAGE_RULES.tooLarge, tooMany: MESSAGES.branchImageRequired },
      }),
    },
  }),
];
