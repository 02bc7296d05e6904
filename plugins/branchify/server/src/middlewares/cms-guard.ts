import { env } from '@branchify/shared/node';
import type { Context } from 'koa';
import type { Next } from '../http/next';
import { refuseCmsRegistration, seatNeverFree } from '../operations/cms-admin';
import { requestPath } from '../http/request-path';

const REGISTER_FIRST_ADMIN = '/admin/register-admin';
const INIT = '/admin/init';

/**
 * The second layer of the closed /cms registration (the first is Strapi's actions themselves,
 * see operations/cms-admin.ts): the first-admin registration is refused, and /admin/init's
 * answer never offers the seat, in every spelling of their paths (request-path.ts).
 */
export default () => async (ctx: Context, next: Next) => {
  if (env().CMS_ADMIN_REGISTRATION) return next();
  const { key } = requestPath(ctx);
  if (key === REGISTER_FIRST_ADMIN) return refuseCmsRegistration(ctx);
  await next();
  if (key === INIT) seatNeverFree(ctx.body);
};
