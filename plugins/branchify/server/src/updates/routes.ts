import { ADMIN, route } from '../routes/define';

export default [
  route('GET', '/admin/updates/info', 'updates.info', { auth: ADMIN }),
  route('GET', '/admin/updates/is-token-registered', 'updates.isTokenRegistered', { auth: ADMIN }),
  route('POST', '/admin/updates/save-license-key', 'updates.saveLicenseKey', { auth: ADMIN }),
  route('POST', '/admin/updates/download', 'updates.download', { auth: ADMIN }),
  route('POST', '/admin/updates/apply', 'updates.apply', { auth: ADMIN }),
  route('POST', '/admin/updates/update-app', 'updates.updateApp', { auth: ADMIN }),
];
