import { closeCmsRegistration } from './operations/cms-admin';
import type { Strapi } from './utils/strapi';

export default ({ strapi }: { strapi: Strapi }) => {
  // Before the routes are mounted: they take Strapi's actions as they are at that moment.
  closeCmsRegistration(strapi);
  strapi.log.debug('[branchify] plugin registered');
};
