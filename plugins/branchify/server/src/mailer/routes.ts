import { ADMIN, route } from '../routes/define';

export default [
  route('GET', '/admin/mailer', 'mailer.show', { auth: ADMIN }),
  route('PUT', '/admin/mailer', 'mailer.update', { auth: ADMIN }),
  route('POST', '/admin/mailer/verify', 'mailer.verify', { auth: ADMIN }),
];
