import { errors } from '@strapi/utils';
import { fieldMessages, PASSWORD_MAX_BYTES, passwordTooLong } from '@branchify/shared';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';

interface WriteEvent {
  params: { where?: Record<string, unknown>; data?: Record<string, unknown> };
  result?: { id?: number } | null;
  state: { before?: Array<{ id: number; password: string | null }> };
}

const writesPassword = (event: WriteEvent) => event.params.data?.password !== undefined && event.params.data.password !== null;

/**
 * A user's password written through Strapi's query layer — by the API, the /cms Content Manager,
 * the document service or any code of the app — ends that user's sessions in the same write's
 * transaction: the token version that every access token carries is bumped (one atomic increment),
 * refresh tokens are revoked and outstanding reset links deleted. Only a stored hash that really
 * changed counts, so a tool writing back the hash it read ends nothing.
 */
export const endSessionsOnPasswordWrites = (strapi: Strapi): void => {
  const users = () => query(strapi, UID.user);
  const storedHashes = async (where: Record<string, unknown> | undefined, one: boolean) => {
    const rows = one ? [await users().findOne({ where, select: ['id', 'password'] })] : await users().findMany({ where, select: ['id', 'password'] });
    return rows.filter((row) => row !== null).map((row) => ({ id: row.id, password: row.password ?? null }));
  };
  const endSessionsOfChanged = async (event: WriteEvent) => {
    const before = event.state.before ?? [];
    if (!before.length) return;
    const after = new Map(
      (await users().findMany({ where: { id: { $in: before.map((row) => row.id) } }, select: ['id', 'password'] })).map((row) => [row.id, row.password]),
    );
    const changed = before.filter((row) => after.has(row.id) && after.get(row.id) !== row.password).map((row) => row.id);
    if (!changed.length) return;
    await strapi.db
      .queryBuilder(UID.user)
      .where({ id: { $in: changed } })
      .increment('token_version', 1)
      .execute();
    for (const id of changed) {
      await getService(strapi, 'tokens').revokeAllForUser(id);
      await getService(strapi, 'links').deleteAllForUser(id);
    }
    strapi.log.info(`[users] password changed for user ${changed.join(', ')}: their sessions and reset links are ended`);
  };

  strapi.db.lifecycles.subscribe({
    models: [UID.user],
    async beforeUpdate(event: WriteEvent) {
      if (writesPassword(event)) event.state.before = await storedHashes(event.params.where, true);
    },
    async beforeUpdateMany(event: WriteEvent) {
      if (writesPassword(event)) event.state.before = await storedHashes(event.params.where, false);
    },
    afterUpdate: endSessionsOfChanged,
    afterUpdateMany: endSessionsOfChanged,
  });
};

/**
 * Strapi's document service (the Content Manager, plugins, scripts) refuses a new user password
 * bcrypt would cut short, as the API's schemas do; it hashes the password itself, so this is the
 * last place the plain text is seen.
 */
export const refuseLongPasswordsInDocuments = (strapi: Strapi): void => {
  strapi.documents.use(async (ctx, next) => {
    const data = (ctx.params as { data?: Record<string, unknown> } | undefined)?.data;
    if (ctx.uid === UID.user && (ctx.action === 'create' || ctx.action === 'update') && typeof data?.password === 'string' && passwordTooLong(data.password)) {
      const message = fieldMessages.maxBytes('password', PASSWORD_MAX_BYTES);
      throw new errors.ValidationError(message, { errors: [{ path: ['password'], message, name: 'ValidationError' }] });
    }
    return next();
  });
};
