import apiEnvelope from './api-envelope';
import authenticate from './authenticate';
import rateLimit from './rate-limit';
import spa from './spa';

export default {
  'api-envelope': apiEnvelope,
  authenticate,
  'rate-limit': rateLimit,
  spa,
};
