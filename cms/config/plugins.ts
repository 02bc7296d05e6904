import { env } from '@branchify/shared/node';

export default () => ({
  branchify: { enabled: true, resolve: '../plugins/branchify' },
  'users-permissions': {
    config: {
      jwtSecret: env().JWT_SECRET,
      // Our own auth (plugin branchify) issues the tokens end users hold; see docs/decisions.md.
      register: { allowedFields: ['first_name', 'last_name'] },
    },
  },
});
