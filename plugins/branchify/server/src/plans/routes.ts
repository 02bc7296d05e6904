import { ADMIN, route } from '../routes/define';

export default [
  route('GET', '/plans', 'plans.publicIndex'),
  route('GET', '/admin/plans', 'plans.index', { auth: ADMIN }),
  route('GET', '/admin/plans/:id', 'plans.show', { auth: ADMIN }),
  route('POST', '/admin/plans', 'plans.create', { auth: ADMIN }),
  route('PUT', '/admin/plans/:id', 'plans.update', { auth: ADMIN }),
  route('DELETE', '/admin/plans/:id', 'plans.destroy', { auth: ADMIN }),
];
