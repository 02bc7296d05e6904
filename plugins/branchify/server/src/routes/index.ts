import authRoutes from '../auth/routes';
import userRoutes from '../users/routes';
import planRoutes from '../plans/routes';
import billingRoutes from '../billing/routes';
import videoRoutes from '../videos/routes';
import captionRoutes from '../captions/routes';
import funnelRoutes from '../funnels/routes';
import customizationRoutes from '../customization/routes';
import uploadRoutes from '../uploads/routes';
import mailerRoutes from '../mailer/routes';
import updateRoutes from '../updates/routes';
import setupRoutes from '../setup/routes';
import webhookRoutes from '../webhooks/routes';
import operationsRoutes from '../operations/routes';
import integratorRouters from '../integrator/routes';

/** The app's /api routes (one router, each route un-prefixed), then the integrator API under /api/branchify. */
export default {
  'content-api': {
    type: 'content-api',
    routes: [
      ...authRoutes,
      ...userRoutes,
      ...planRoutes,
      ...billingRoutes,
      ...videoRoutes,
      ...captionRoutes,
      ...funnelRoutes,
      ...customizationRoutes,
      ...uploadRoutes,
      ...mailerRoutes,
      ...updateRoutes,
      ...setupRoutes,
      ...webhookRoutes,
      ...operationsRoutes,
    ],
  },
  ...integratorRouters,
};
