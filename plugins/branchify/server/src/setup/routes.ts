import { ADMIN, route } from '../routes/define';

export default [
  // Public: the sign-in page asks whether the next account to register becomes the administrator.
  route('GET', '/setup', 'setup.install'),
  route('GET', '/admin/setup', 'setup.show', { auth: ADMIN }),
  route('POST', '/admin/setup/dismiss', 'setup.dismiss', { auth: ADMIN }),
];
