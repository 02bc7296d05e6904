import { ADMIN, route } from '../routes/define';

export default [
  route('GET', '/customizations', 'customizations.show'),
  route('GET', '/admin/customizations', 'customizations.adminShow', { auth: ADMIN }),
  route('POST', '/admin/customizations', 'customizations.update', { auth: ADMIN }),
  route('POST', '/admin/customizations/images', 'customizations.uploadImages', { auth: ADMIN }),
  route('POST', '/admin/customizations/email-preview', 'customizations.emailPreview', { auth: ADMIN }),
];
