import apiEnvelope from './api-envelope';
import authenticate from './authenticate';
import cmsGuard from './cms-guard';
import integratorErrors from '../integrator/errors';
import { importGuard, ownFunnelGuard } from '../funnels/guards';
import laterJson from './later-json';
import multipart from './multipart';
import pathGuard from './path-guard';
import playerPayload from './player-payload';
import probes from './probes';
import rateLimit from './rate-limit';
import rawBody from './raw-body';
import sameOrigin from './same-origin';
import spa from './spa';
import uploads from './uploads';
import viewerFastPath from './viewer-fast-path';

export default {
  'api-envelope': apiEnvelope,
  authenticate,
  'cms-guard': cmsGuard,
  'integrator-errors': integratorErrors,
  'later-json': laterJson,
  'funnel-import-guard': importGuard,
  'own-funnel-guard': ownFunnelGuard,
  multipart,
  'path-guard': pathGuard,
  'player-payload': playerPayload,
  probes,
  'rate-limit': rateLimit,
  'raw-body': rawBody,
  'same-origin': sameOrigin,
  spa,
  uploads,
  'viewer-fast-path': viewerFastPath,
};
