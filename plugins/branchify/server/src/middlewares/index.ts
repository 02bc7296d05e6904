import apiEnvelope from './api-envelope';
import authenticate from './authenticate';
import cmsGuard from './cms-guard';
import integratorErrors from '../integrator/errors';
import pathGuard from './path-guard';
import playerPayload from './player-payload';
import probes from './probes';
import rateLimit from './rate-limit';
import spa from './spa';
import uploads from './uploads';

export default {
  'api-envelope': apiEnvelope,
  authenticate,
  'cms-guard': cmsGuard,
  'integrator-errors': integratorErrors,
  'path-guard': pathGuard,
  'player-payload': playerPayload,
  probes,
  'rate-limit': rateLimit,
  spa,
  uploads,
};
