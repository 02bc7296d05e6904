import apiEnvelope from './api-envelope';
import authenticate from './authenticate';
import cmsGuard from './cms-guard';
import integratorErrors from '../integrator/errors';
import playerPayload from './player-payload';
import rateLimit from './rate-limit';
import spa from './spa';

export default {
  'api-envelope': apiEnvelope,
  authenticate,
  'cms-guard': cmsGuard,
  'integrator-errors': integratorErrors,
  'player-payload': playerPayload,
  'rate-limit': rateLimit,
  spa,
};
