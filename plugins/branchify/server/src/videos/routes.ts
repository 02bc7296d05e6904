import { MESSAGES } from '@branchify/shared';
import { route } from '../routes/define';
import { BRANCH_IMAGE_RULES, IMAGE_FIELD, IMAGE_UPLOAD_LIMIT } from '../uploads/service';

const USER_AREA = { verified: true };

export default [
  route('GET', '/videos', 'videos.index', { auth: USER_AREA }),
  route('POST', '/videos', 'videos.create', { auth: USER_AREA }),
  route('PUT', '/videos/:id', 'videos.update', { auth: USER_AREA }),
  // A poster frame drawn by the owner's browser: an image upload, with the image uploads' budget and limit.
  route('PUT', '/videos/:id/poster', 'videos.poster', {
    auth: USER_AREA,
    rateLimit: { name: IMAGE_UPLOAD_LIMIT, account: 'user', budget: 'upload' },
    multipart: {
      fields: () => ({
        [IMAGE_FIELD]: { maxBytes: BRANCH_IMAGE_RULES.maxKb * 1024, maxFiles: 1, tooLarge: BRANCH_IMAGE_RULES.tooLarge, tooMany: MESSAGES.branchImageRequired },
      }),
    },
  }),
  route('DELETE', '/videos/:id', 'videos.destroy', { auth: USER_AREA }),
];
