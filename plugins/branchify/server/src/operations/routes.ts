import { ADMIN, route } from '../routes/define';

export default [
  route('GET', '/admin/operations/load', 'operations.show', { auth: ADMIN }),
  route('POST', '/admin/operations/load/reset', 'operations.reset', { auth: ADMIN }),
  route('POST', '/admin/operations/collect-images', 'operations.collectImages', { auth: ADMIN }),
];
