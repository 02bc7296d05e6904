import { CAPTION_FILE_FIELD, CAPTION_LIMITS, MESSAGES, messageTemplates } from '@branchify/shared';
import { route } from '../routes/define';

const USER_AREA = { verified: true };

export default [
  route('GET', '/videos/:id/captions', 'captions.index', { auth: USER_AREA }),
  // A caption file is an upload: the upload budget per account and address, one file within its limit.
  route('POST', '/videos/:id/captions', 'captions.create', {
    auth: USER_AREA,
    rateLimit: { name: 'caption-upload', account: 'user', budget: 'upload' },
    multipart: {
      fields: () => ({
        [CAPTION_FILE_FIELD]: {
          maxBytes: CAPTION_LIMITS.maxFileKb * 1024,
          maxFiles: 1,
          tooLarge: messageTemplates.captionFileTooLarge(CAPTION_LIMITS.maxFileKb),
          tooMany: MESSAGES.captionFileRequired,
        },
      }),
    },
  }),
  route('DELETE', '/videos/:id/captions/:trackId', 'captions.destroy', { auth: USER_AREA }),
  // Public: viewers fetch the tracks their player payload lists; each address has the viewers' budget.
  route('GET', '/captions/:key', 'captions.file', { rateLimit: { name: 'caption-file', budget: 'ingest' } }),
];
