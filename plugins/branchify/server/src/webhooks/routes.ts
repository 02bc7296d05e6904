import { ADMIN, route } from '../routes/define';

export default [
  route('GET', '/admin/webhooks', 'webhooks.index', { auth: ADMIN }),
  route('POST', '/admin/webhooks', 'webhooks.create', { auth: ADMIN }),
  route('GET', '/admin/webhooks/:id', 'webhooks.show', { auth: ADMIN }),
  route('PUT', '/admin/webhooks/:id', 'webhooks.update', { auth: ADMIN }),
  route('DELETE', '/admin/webhooks/:id', 'webhooks.destroy', { auth: ADMIN }),
  route('GET', '/admin/webhooks/:id/deliveries', 'webhooks.deliveries', { auth: ADMIN }),
  route('POST', '/admin/webhooks/:id/test', 'webhooks.test', { auth: ADMIN }),
  route('POST', '/admin/webhooks/deliveries/:id/resend', 'webhooks.resend', { auth: ADMIN }),
];
