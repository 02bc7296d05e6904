import { confineApiTokens, dropUnusedContentApis } from './integrator/token-scope';
import { closeCmsRegistration } from './operations/cms-admin';
import type { Strapi } from './utils/strapi';
import { refuseLongPasswordsInDocuments } from './users/password-writes';

export default ({ strapi }: { strapi: Strapi }) => {
  // Before the routes are mounted: they take Strapi's actions as they are at that moment.
  closeCmsRegistration(strapi);
  // API tokens open the integrator API only; Strapi's unused content APIs are not routed.
  confineApiTokens(strapi);
  dropUnusedContentApis(strapi);
  refuseLongPasswordsInDocuments(strapi);
  strapi.log.debug('[branchify] plugin registered');
};
