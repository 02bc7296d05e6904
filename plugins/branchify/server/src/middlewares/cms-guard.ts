import { MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import type { Context, Next } from 'koa';

const REGISTER_FIRST_ADMIN = '/admin/register-admin';
const INIT = '/admin/init';

/**
 * Strapi's admin API stays mounted whether or not its panel is served, and it hands a super-admin
 * token to whoever registers first. That registration is closed unless the operator opens it on
 * purpose (CMS_ADMIN_REGISTRATION); the operator creates the /cms super admin with the CLI instead,
 * and /admin/init never tells a visitor that the seat is free.
 */
export default () => async (ctx: Context, next: Next) => {
  if (env().CMS_ADMIN_REGISTRATION) return next();
  if (ctx.path === REGISTER_FIRST_ADMIN) {
    ctx.status = 403;
    // Strapi's own error shape: this is its admin API, not ours.
    ctx.body = { data: null, error: { status: 403, name: 'ForbiddenError', message: MESSAGES.cmsRegistrationClosed, details: {} } };
    return;
  }
  await next();
  if (ctx.path === INIT && ctx.method === 'GET') {
    const body = ctx.body as { data?: { hasAdmin?: boolean } } | undefined;
    if (body?.data && body.data.hasAdmin === false) body.data.hasAdmin = true;
  }
};
