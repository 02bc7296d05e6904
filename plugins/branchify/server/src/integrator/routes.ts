import { factories } from '@strapi/strapi';
import { UID } from '../utils/strapi';

type Action = 'find' | 'findOne' | 'create' | 'update' | 'cancel' | 'resume';

/** Every action an integrator route runs (its Strapi scope): all an API token may ever be used for. */
export const INTEGRATOR_SCOPES = new Set<string>();

/**
 * Only Strapi API tokens (made in /cms) open the integrator API: the app's own access tokens and
 * users-permissions' JWTs are refused here, as API tokens are on the app's routes. A read-only
 * token reaches find and findOne; a full-access token everything (Strapi's own scope check on
 * the action, e.g. `plugin::branchify.subscription.cancel`).
 */
const tokenOnly = (handler: string) => {
  const scope = `plugin::branchify.${handler}`;
  INTEGRATOR_SCOPES.add(scope);
  return {
    // Strapi's route types know only `scope`; its auth service also reads `strategies`.
    auth: { scope: [scope], strategies: ['content-api-token'] } as { scope: string[] },
    middlewares: [
      'plugin::branchify.integrator-errors',
      // Each token has its own budget per window (a busy integration cannot starve the app).
      { name: 'plugin::branchify.rate-limit', config: { name: 'integrator', account: 'api-token', budget: 'integrator', perAddress: false } },
    ],
  };
};

const core = (uid: string, actions: readonly Action[]) =>
  Object.fromEntries(actions.map((action) => [action, tokenOnly(`${uid.split('.')[1]}.${action}`)])) as Record<Action, ReturnType<typeof tokenOnly>>;

const READ = ['find', 'findOne'] as const;
const SUBSCRIPTION = ['find', 'findOne', 'create', 'update'] as const;

/** Routers served under /api/branchify (a plugin's content-api routes take its name as prefix). */
export default {
  'integrator-plans': factories.createCoreRouter(UID.plan, { only: [...READ], config: core(UID.plan, READ) }),
  'integrator-funnels': factories.createCoreRouter(UID.funnel, { only: [...READ], config: core(UID.funnel, READ) }),
  'integrator-videos': factories.createCoreRouter(UID.video, { only: [...READ], config: core(UID.video, READ) }),
  'integrator-subscriptions': factories.createCoreRouter(UID.subscription, { only: [...SUBSCRIPTION], config: core(UID.subscription, SUBSCRIPTION) }),
  integrator: {
    type: 'content-api',
    routes: [
      { method: 'POST', path: '/subscriptions/:id/cancel', handler: `${UID.subscription}.cancel`, config: tokenOnly('subscription.cancel') },
      { method: 'POST', path: '/subscriptions/:id/resume', handler: `${UID.subscription}.resume`, config: tokenOnly('subscription.resume') },
      { method: 'GET', path: '/funnels/:id/export', handler: 'integrator-funnel-export.findOne', config: tokenOnly('integrator-funnel-export.findOne') },
      { method: 'POST', path: '/funnels/import', handler: 'integrator-funnel-import.create', config: tokenOnly('integrator-funnel-import.create') },
      { method: 'GET', path: '/users', handler: 'integrator-user.find', config: tokenOnly('integrator-user.find') },
      { method: 'GET', path: '/users/:id', handler: 'integrator-user.findOne', config: tokenOnly('integrator-user.findOne') },
      { method: 'GET', path: '/openapi.json', handler: 'integrator-openapi.show', config: { auth: false as const } },
    ],
  },
};
