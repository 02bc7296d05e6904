import { MESSAGES, createUserSchema, updateProfileSchema, updateStatusSchema } from '@branchify/shared';
import type { Context } from 'koa';
import { notFound, validationError } from '../http/errors';
import { pageMeta, readListQuery } from '../http/paging';
import { routeId } from '../http/params';
import { created, ok, paged } from '../http/respond';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { isProfileEdit, readOnlyConflicts } from './edit';
import { USER_SORTABLE } from './service';
import type { UserRecord } from '../content-types/users-permissions';
import { signedInUser } from '../http/request-state';

/** Users admin; every route is admin-only. */
export default ({ strapi }: { strapi: Strapi }) => {
  const users = () => getService(strapi, 'users');
  const admin = () => getService(strapi, 'user-administration');
  const present = (user: UserRecord) => getService(strapi, 'users-presenter').present(user);
  const load = async (ctx: Context): Promise<UserRecord> => {
    const user = await users().findRecord(routeId(ctx));
    if (!user) throw notFound();
    return user;
  };

  const updateStatus = async (ctx: Context, target: UserRecord, body: Record<string, unknown>) => {
    const input = parse(updateStatusSchema, body);
    const actorId: number = signedInUser(ctx).id;
    if (input.status === 'suspended') {
      return ok(ctx, await present(await admin().suspend(target, input.status_note!, actorId)), MESSAGES.userSuspended);
    }
    return ok(ctx, await present(await admin().reactivate(target, actorId)), MESSAGES.userReactivated);
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
      created(ctx, await present(await admin().create(input, signedInUser(ctx).id)), MESSAGES.userCreated);
    },

    async update(ctx: Context) {
      const target = await load(ctx);
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      if (!isProfileEdit(body) && 'status' in body) return updateStatus(ctx, target, body);

      // A profile edit: the record as GET served it comes back with the edited fields changed.
      const input = parse(updateProfileSchema, body);
      const conflicts = readOnlyConflicts(body, target);
      if (Object.keys(conflicts).length) throw validationError(conflicts);
      ok(ctx, await present(await admin().editProfile(target, input)), MESSAGES.userUpdated);
    },

    async markVerified(ctx: Context) {
      ok(ctx, await present(await admin().markVerified(await load(ctx), signedInUser(ctx).id)), MESSAGES.accountVerified);
    },

    async destroy(ctx: Context) {
      await admin().remove(await load(ctx), signedInUser(ctx).id);
      ok(ctx, null, MESSAGES.userDeleted);
    },
  };
};
