import { bodyGate } from './middlewares/body';
import { parseCmsUploadsAfterAuth } from './uploads/cms-uploads';
import type { Strapi } from './utils/strapi';

export default ({ strapi }: { strapi: Strapi }) => {
  // Which bodies are read, and where (middlewares/body.ts): strapi::body stays in the middleware
  // list Strapi requires, with this gate around it.
  strapi.get('middlewares').extend('strapi::body', (strapiBody: Parameters<typeof bodyGate>[0]) => bodyGate(strapiBody));
  parseCmsUploadsAfterAuth(strapi);
  strapi.log.debug('[branchify] plugin registered');
};
