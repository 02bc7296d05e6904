/**
 * Extends the users-permissions user with the spec's fields and removes the plugin's
 * own end-user routes (/api/auth/local, /api/users/...): Branchify's auth API replaces them and
 * `/api/users/subscriptions` must not collide with `/api/users/:id`. See docs/decisions/001-auth-runs-in-our-plugin-outside-users-permissions-role-check.md.
 */
const AUTHORITY_FIELDS = [
  'is_admin',
  'status',
  'status_note',
  'status_ends_at',
  'email_verified_at',
  'confirmed',
  'blocked',
  'subscription_id',
  'subscription',
  'token_version',
  'stripe_customer_id',
  'stripe_payment_method_id',
  'deletion_started_at',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Strapi types a plugin extension's argument loosely
export default (plugin: any) => {
  const user = plugin.contentTypes.user;
  Object.assign(user.schema.attributes, {
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    is_admin: { type: 'boolean', default: false },
    status: { type: 'enumeration', enum: ['active', 'suspended'], default: 'active' },
    status_note: { type: 'text' },
    status_ends_at: { type: 'datetime' },
    email_verified_at: { type: 'datetime' },
    subscription_id: { type: 'integer' },
    // The current subscription, read from subscription_id (no column, link table or key of its own).
    subscription: {
      type: 'relation',
      relation: 'manyToOne',
      target: 'plugin::branchify.subscription',
      useJoinTable: false,
      joinColumn: { name: 'subscription_id', referencedColumn: 'id', referencedTable: null },
      private: true,
      writable: false,
    },
    token_version: { type: 'integer', default: 0, private: true },
    stripe_customer_id: { type: 'string', private: true },
    stripe_payment_method_id: { type: 'string', private: true },
    // Set while the account is being deleted: billing actions refuse from then on.
    deletion_started_at: { type: 'datetime', private: true },
  });
  user.schema.indexes = [
    ...(user.schema.indexes ?? []),
    { name: 'up_users_email_idx', columns: ['email'] },
    { name: 'up_users_name_idx', columns: ['last_name', 'first_name'] },
    { name: 'up_users_status_idx', columns: ['status'] },
  ];
  // Fields that carry authority are ours to change (through the rules of the Branchify API): the
  // Content Manager neither shows nor accepts them.
  const hidden = Object.fromEntries(AUTHORITY_FIELDS.map((field) => [field, { hidden: true }]));
  user.schema.config = { ...(user.schema.config ?? {}), attributes: { ...(user.schema.config?.attributes ?? {}), ...hidden } };
  plugin.routes['content-api'] = { type: 'content-api', routes: [] };
  return plugin;
};
