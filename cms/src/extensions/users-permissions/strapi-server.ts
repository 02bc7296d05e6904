/**
 * Extends the users-permissions user with the spec's fields (section 3) and removes the plugin's
 * own end-user routes (/api/auth/local, /api/users/...): Branchify's auth API replaces them and
 * `/api/users/subscriptions` must not collide with `/api/users/:id`. See docs/decisions.md.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export default (plugin: any) => {
  const user = plugin.contentTypes.user;
  Object.assign(user.schema.attributes, {
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    is_admin: { type: 'boolean', default: false },
    status: { type: 'string', default: 'active' },
    status_note: { type: 'text' },
    status_ends_at: { type: 'datetime' },
    email_verified_at: { type: 'datetime' },
    subscription_id: { type: 'integer' },
    token_version: { type: 'integer', default: 0, private: true },
    stripe_customer_id: { type: 'string', private: true },
    stripe_payment_method_id: { type: 'string', private: true },
  });
  user.schema.indexes = [
    ...(user.schema.indexes ?? []),
    { name: 'up_users_email_idx', columns: ['email'] },
    { name: 'up_users_name_idx', columns: ['last_name', 'first_name'] },
    { name: 'up_users_status_idx', columns: ['status'] },
  ];
  plugin.routes['content-api'] = { type: 'content-api', routes: [] };
  return plugin;
};
