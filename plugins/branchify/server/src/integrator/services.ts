import { factories } from '@strapi/strapi';
import { UID } from '../utils/strapi';

/** Strapi's core services for the content types the integrator API reads (its core controllers call them). */
export const coreServices = {
  plan: factories.createCoreService(UID.plan),
  subscription: factories.createCoreService(UID.subscription),
  funnel: factories.createCoreService(UID.funnel),
  video: factories.createCoreService(UID.video),
};
