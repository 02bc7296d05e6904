import { ADMIN, route } from '../routes/define';

export default [
  route('GET', '/admin/users', 'admin-users.index', { auth: ADMIN }),
  route('GET', '/admin/users/:id', 'admin-users.show', { auth: ADMIN }),
  route('POST', '/admin/users', 'admin-users.create', { auth: ADMIN }),
  route('PUT', '/admin/users/:id', 'admin-users.update', { auth: ADMIN }),
  route('DELETE', '/admin/users/:id', 'admin-users.destroy', { auth: ADMIN }),
  route('POST', '/admin/users/:id/verify-email', 'admin-users.markVerified', { auth: ADMIN }),
];
