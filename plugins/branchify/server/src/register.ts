import { confineApiTokens, dropUnusedContentApis } from './integrator/token-scope';
import type { Strapi } from './utils/strapi';

export default ({ strapi }: { strapi: Strapi }) => {
  // API tokens open the integrator API only; Strapi's unused content APIs are not routed.
  confineApiTokens(strapi);
  dropUnusedContentApis(strapi);
  strapi.log.debug('[branchify] plugin registered');
};
