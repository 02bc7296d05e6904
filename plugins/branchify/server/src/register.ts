import { confineApiTokens, dropUnusedContentApis } from './integrator/token-scope';
import { closeCmsRegistration } from './operations/cms-admin';
import { bodyGate } from './middlewares/body';
import { parseCmsUploadsAfterAuth } from './uploads/cms-uploads';
import type { Strapi } from './utils/strapi';
import { refuseLongPasswordsInDocuments } from './users/password-writes';

type MiddlewareFactory = Parameters<typeof bodyGate>[0];
/** Strapi's middleware registry (typed `any` by Strapi): `extend` wraps a middleware by name. */
type MiddlewareRegistry = { extend(name: string, extend: (factory: MiddlewareFactory) => MiddlewareFactory): unknown };

export default ({ strapi }: { strapi: Strapi }) => {
  // Before the routes are mounted: they take Strapi's actions as they are at that moment.
  closeCmsRegistration(strapi);
  // API tokens open the integrator API only; Strapi's unused content APIs are not routed.
  confineApiTokens(strapi);
  dropUnusedContentApis(strapi);
  refuseLongPasswordsInDocuments(strapi);
  // Which bodies are read, and where (middlewares/body.ts): strapi::body stays in the middleware
  // list Strapi requires, with this gate around it.
  strapi.get<MiddlewareRegistry>('middlewares').extend('strapi::body', (strapiBody) => bodyGate(strapiBody));
  parseCmsUploadsAfterAuth(strapi);
  strapi.log.debug('[branchify] plugin registered');
};
