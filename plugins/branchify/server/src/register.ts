import type { Strapi } from './utils/strapi';

export default ({ strapi }: { strapi: Strapi }) => {
  strapi.log.debug('[branchify] plugin registered');
};
