import { route } from '../routes/define';

export default [
  // Who may add a video may add an image; uploads cost disk and image processing, so each account
  // and address has a budget per window.
  route('POST', '/uploads/images', 'uploads.images', {
    auth: { verified: true },
    rateLimit: { name: 'image-upload', account: 'user', budget: 'upload' },
  }),
];
