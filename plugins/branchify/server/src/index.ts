import bootstrap from './bootstrap';
import contentTypes from './content-types';
import controllers from './controllers';
import destroy from './destroy';
import middlewares from './middlewares';
import register from './register';
import routes from './routes';
import services from './services';

export default {
  register,
  bootstrap,
  destroy,
  contentTypes,
  controllers,
  middlewares,
  routes,
  services,
  policies: {},
  config: { default: {}, validator() {} },
};
