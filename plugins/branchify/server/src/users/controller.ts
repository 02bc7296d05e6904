import { MESSAGES, createUserSchema, updateProfileSchema, updateStatusSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { forbidden, notFound, validationError } from '../http/errors';
import { pageMeta, readListQuery } from '../http/paging';
import { routeId } from '../http/params';
import { created, ok, paged } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { isProfileEdit, readOnlyConflicts } from './edit';
import type { UserRecord } from './serialize';
import { USER_SORTABLE } from './service';

/** Users admin; every route is admin-only. */
export default ({ strapi }: { strapi: Strapi }) => {
  const users = () => getService(strapi, 'users');
  const present = (user: UserRecord) => getService(strapi, 'users-presenter').present(user);
  const load = async (ctx: Context): Promise<UserRecord> => {
    const user = await users().findRecord(routeId(ctx));
    if (!user) throw notFound();
    return user;
  };

  const updateStatus = async (ctx: Context, target: UserRecord, body: Record<string, unknown>) => {
    const input = parse(updateStatusSchema, body);
    if (input.status === 'suspended') {
      if (target.is_admin) throw forbidden(MESSAGES.adminCannotBeSuspended);
      const note = input.status_note!;
      const updated = await users().update(target.id, {
        status: 'suspended',
        status_note: note,
        // Every token the user holds stops working now, not when it expires.
        token_version: (target.token_version ?? 0) + 1,
      });
      await getService(strapi, 'tokens').revokeAllForUser(target.id);
      // A suspended owner's funnels stop loading at once (and come back on reactivation).
      getService(strapi, 'player-payload').invalidateAll();
      await getService(strapi, 'notifications').accountSuspended(updated, note);
      strapi.log.info(`[users] admin ${ctx.state.branchifyUser.id} suspended user ${target.id}`);
      return ok(ctx, await present(updated), MESSAGES.userSuspended);
    }
    const updated = await users().update(target.id, { status: 'active', status_note: null });
    getService(strapi, 'player-payload').invalidateAll();
    strapi.log.info(`[users] admin ${ctx.state.branchifyUser.id} reactivated user ${target.id}`);
    return ok(ctx, await present(updated), MESSAGES.userReactivated);
  };

  return {
    async index(ctx: Context) {
      const q = readListQuery(ctx.query, USER_SORTABLE);
      const { rows, total } = await users().list(q);
      paged(ctx, await Promise.all(rows.map(present)), pageMeta(q, total), 'users');
    },

    async show(ctx: Context) {
      ok(ctx, await present(await load(ctx)));
    },

    async create(ctx: Context) {
      const input = parse(createUserSchema, ctx.request.body);
      if (await users().emailTaken(input.email)) throw validationError({ email: [MESSAGES.emailTaken] });
      // An account an admin creates is vouched for: it does not wait for email verification.
      const user = await users().create(input, { verified: true });
      strapi.log.info(`[users] admin ${ctx.state.branchifyUser.id} created user ${user.id}${user.is_admin ? ' (admin)' : ''}`);
      created(ctx, await present(user), MESSAGES.userCreated);
    },

    async update(ctx: Context) {
      const target = await load(ctx);
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      if (!isProfileEdit(body) && 'status' in body) return updateStatus(ctx, target, body);

      // A profile edit: the record as GET served it comes back with the edited fields changed.
      const input = parse(updateProfileSchema, body);
      const conflicts = readOnlyConflicts(body, target);
      if (Object.keys(conflicts).length) throw validationError(conflicts);
      if (await users().emailTaken(input.email, target.id)) throw validationError({ email: [MESSAGES.emailTaken] });
      const updated = await users().update(target.id, {
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        username: input.email,
      });
      ok(ctx, await present(updated), MESSAGES.userUpdated);
    },

    async destroy(ctx: Context) {
      const id = routeId(ctx);
      if (id === ctx.state.branchifyUser.id) throw forbidden(MESSAGES.cannotDeleteSelf);
      const target = await load(ctx);
      await getService(strapi, 'account-removal').remove(target);
      strapi.log.info(`[users] admin ${ctx.state.branchifyUser.id} deleted user ${target.id}`);
      ok(ctx, null, MESSAGES.userDeleted);
    },
  };
};
