import { MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import type { Context } from 'koa';
import type { Strapi } from '../utils/strapi';

type Action = (ctx: Context) => unknown;
type Controller = Record<string, unknown>;

/** The refusal of the first-admin registration, in Strapi's error shape (this is its admin API, not ours). */
export const refuseCmsRegistration = (ctx: Context): void => {
  ctx.status = 403;
  ctx.body = { data: null, error: { status: 403, name: 'ForbiddenError', message: MESSAGES.cmsRegistrationClosed, details: {} } };
};

/** /admin/init's answer (`{ data: { hasAdmin, … } }`) with the seat never free. */
export const seatNeverFree = (answer: unknown): void => {
  const data = (answer as { data?: { hasAdmin?: unknown } } | null | undefined)?.data;
  if (data && data.hasAdmin === false) data.hasAdmin = true;
};

/** Replaces one action of one of Strapi's controllers, before its routes are mounted (plugin register). */
const wrapAction = (strapi: Strapi, uid: string, name: string, wrap: (original: Action) => Action): void => {
  const registry = strapi.get<{ extend(uid: string, extend: (controller: Controller) => Controller): unknown }>('controllers');
  registry.extend(uid, (controller) => {
    const original = controller[name];
    // Fail the start rather than run with the registration open.
    if (typeof original !== 'function') throw new Error(`[cms] Strapi's ${uid}.${name} is missing: the /cms registration cannot be closed`);
    return { ...controller, [name]: wrap((ctx) => (original as Action).call(controller, ctx)) };
  });
};

/**
 * Strapi hands a super-admin token to whoever registers its first admin while none exists. Unless
 * the operator opens that on purpose (CMS_ADMIN_REGISTRATION), the registration action itself
 * refuses, whatever path spelling reached it, and /admin/init's action never says the seat is free;
 * the operator creates the /cms super admin with `npm run create-admin -- --cms`.
 */
export const closeCmsRegistration = (strapi: Strapi): void => {
  wrapAction(
    strapi,
    'admin::authentication',
    'registerAdmin',
    (original) => (ctx) => (env().CMS_ADMIN_REGISTRATION ? original(ctx) : refuseCmsRegistration(ctx)),
  );
  wrapAction(strapi, 'admin::admin', 'init', (original) => async (ctx) => {
    const answer = await original(ctx);
    if (!env().CMS_ADMIN_REGISTRATION) seatNeverFree(answer);
    return answer;
  });
};
