import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { z } from 'zod';
import { notFound, validationError } from '../http/errors';
import { routeParam } from '../http/params';
import { parse } from '../http/validate';
import { USER_FIELDS } from '../users/present';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { isDryRun, readImport } from '../funnels/import-body';
import type { UserRecord } from '../content-types/users-permissions';

/** POST /funnels/import: the user the funnel is made for, and the export file itself. */
const importSchema = z.object({
  user_id: z.number({ message: MESSAGES.integratorUserNotFound }).int().positive({ message: MESSAGES.integratorUserNotFound }),
  file: z.unknown(),
});

/** The token an action ran with, for the log (its id and name, never its key). */
const caller = (ctx: Context) => {
  const token = ctx.state.auth?.credentials;
  return `api token ${token?.id ?? '?'} (${token?.name ?? 'unnamed'})`;
};

/**
 * Export a funnel (a read: its action is the export's findOne, open to read-only tokens) and import
 * a file into a user's account (a write, under that user's plan), through the app's own use-case.
 */
export const integratorFunnelExport = ({ strapi }: { strapi: Strapi }) => ({
  async findOne(ctx: Context) {
    const documentId = routeParam(ctx, 'id');
    const row = /^[a-z0-9]{1,64}$/i.test(documentId) ? await query(strapi, UID.funnel).findOne({ where: { documentId } }) : null;
    if (!row) throw notFound();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/json';
    ctx.body = await getService(strapi, 'funnel-transfer').exportStream(row, { before: '{"data":', after: ',"meta":{}}' });
  },
});

export const integratorFunnelImport = ({ strapi }: { strapi: Strapi }) => ({
  async create(ctx: Context) {
    const body = ctx.request.body as { data?: unknown } | undefined;
    if (!body || typeof body.data !== 'object' || body.data === null) throw validationError({ data: ['Missing "data" payload in the request body.'] });
    const input = parse(importSchema, body.data);
    const user: UserRecord | null = await query(strapi, UID.user).findOne({ where: { id: input.user_id }, select: [...USER_FIELDS] });
    if (!user) throw validationError({ user_id: [MESSAGES.integratorUserNotFound] });
    // The file is checked on a worker thread, as the app's own import does.
    const { plan, funnel } = await readImport({ text: JSON.stringify(input.file ?? null) }, (read) =>
      getService(strapi, 'funnel-transfer').importFile(user, read, { dryRun: isDryRun(ctx) }),
    );
    if (!funnel) {
      ctx.body = { data: null, meta: { plan } };
      return;
    }
    strapi.log.info(`[integrator] ${caller(ctx)} imported funnel ${funnel.id} for user ${user.id}`);
    const document = await strapi.documents(UID.funnel).findOne({ documentId: (funnel as { documentId?: string }).documentId! });
    ctx.status = 201;
    ctx.body = { data: await strapi.contentAPI.sanitize.output(document, strapi.getModel(UID.funnel), { auth: ctx.state.auth }), meta: { plan } };
  },
});
