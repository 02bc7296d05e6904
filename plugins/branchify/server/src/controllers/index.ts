import auth from '../auth/controller';
import users from '../users/controller';
import plans from '../plans/controller';
import subscriptions from '../billing/controller';
import adminSubscriptions from '../billing/admin-controller';
import stripeAdmin from '../billing/stripe-admin-controller';
import stripeEvents from '../billing/stripe-events-controller';
import videos from '../videos/controller';
import captions from '../captions/controller';
import funnels from '../funnels/controller';
import analytics from '../analytics/controller';
import customizations from '../customization/controller';
import uploads from '../uploads/controller';
import mailer from '../mailer/controller';
import updates from '../updates/controller';
import setup from '../setup/controller';
import operations from '../operations/controller';
import webhooks from '../webhooks/controller';
import { funnel, integratorOpenapi, integratorUser, plan, subscription, video } from '../integrator/controllers';
import { integratorFunnelExport, integratorFunnelImport } from '../integrator/transfer';

export default {
  auth,
  'admin-users': users,
  plans,
  subscriptions,
  'admin-subscriptions': adminSubscriptions,
  'stripe-admin': stripeAdmin,
  'stripe-webhooks': stripeEvents,
  videos,
  captions,
  funnels,
  analytics,
  customizations,
  uploads,
  mailer,
  updates,
  setup,
  operations,
  webhooks,
  // The integrator API (Strapi core controllers by content type)
  plan,
  subscription,
  funnel,
  video,
  'integrator-user': integratorUser,
  'integrator-openapi': integratorOpenapi,
  'integrator-funnel-export': integratorFunnelExport,
  'integrator-funnel-import': integratorFunnelImport,
};
