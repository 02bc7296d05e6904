import { errors } from '@strapi/utils';
import type { Strapi } from '../utils/strapi';
import { INTEGRATOR_SCOPES } from './routes';

/** Strapi's names for the API-token strategy of the content API (`api-token` before 5.5x). */
const API_TOKEN_STRATEGIES = new Set(['content-api-token', 'api-token']);

/** Plugins whose content API (under /api) nothing in the product calls: not routed at all. */
const UNUSED_CONTENT_APIS = ['upload', 'email', 'content-type-builder', 'i18n'] as const;

interface AuthState {
  strategy?: { name?: string };
}
type RouteAuthConfig = false | { scope?: string | string[] } | undefined;
interface AuthService {
  verify(auth: AuthState | undefined, config?: RouteAuthConfig): Promise<void> | void;
}

/** Whether a route's action is one of the integrator API's (every scope it names is). */
const isIntegratorAction = (config: RouteAuthConfig): boolean => {
  if (!config) return false;
  const scopes = Array.isArray(config.scope) ? config.scope : config.scope ? [config.scope] : [];
  return scopes.length > 0 && scopes.every((scope) => INTEGRATOR_SCOPES.has(scope));
};

/**
 * An API token authorises the integrator API's actions and nothing else, whichever route (and
 * path spelling) reached the action and whatever the token's type: Strapi's own check (full
 * access opens every content-API action) runs only after this one.
 */
export const confineApiTokens = (strapi: Strapi): void => {
  const auth = strapi.get<AuthService>('auth');
  const verify = auth.verify.bind(auth);
  auth.verify = (state, config) => {
    if (state?.strategy?.name && API_TOKEN_STRATEGIES.has(state.strategy.name) && !isIntegratorAction(config)) {
      throw new errors.ForbiddenError();
    }
    return verify(state, config);
  };
};

/**
 * Removes the content-API routers of Strapi's plugins the product does not use over /api (the
 * upload, email, content-type builder and i18n plugins keep their admin routes for /cms).
 */
export const dropUnusedContentApis = (strapi: Strapi): void => {
  for (const name of UNUSED_CONTENT_APIS) {
    const plugin = strapi.plugin(name) as { routes?: Record<string, unknown> } | undefined;
    if (plugin?.routes && 'content-api' in plugin.routes) {
      const { 'content-api': _dropped, ...rest } = plugin.routes;
      plugin.routes = rest;
    }
  }
};
