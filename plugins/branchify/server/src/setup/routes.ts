import { ADMIN, route } from '../routes/define';

export default [route('GET', '/admin/setup', 'setup.show', { auth: ADMIN }), route('POST', '/admin/setup/dismiss', 'setup.dismiss', { auth: ADMIN })];
