import { cancelSchema, integratorSubscribeSchema, integratorUpdateSchema } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { factories } from '@strapi/strapi';
import type { Context } from 'koa';
import { notFound, validationError } from '../http/errors';
import { parse } from '../http/validate';
import { getService } from '../utils/services';
import { UID, type Strapi } from '../utils/strapi';
import { INTEGRATOR_OPENAPI } from './openapi';
import type { SubscriptionRow } from '../content-types/subscription';
import { routeParam } from '../http/params';

/**
 * Strapi's generated REST API for integrators (/api/branchify/...), authenticated by Strapi API
 * tokens. Reads are Strapi's core controllers (its query params, its sanitizing: private
 * attributes never leave); self-managed subscriptions are written through the same billing service
 * as the app, as the actor 'integration'.
 */

/** The token an action ran with, for the log (its id and name, never its key). */
const caller = (ctx: Context) => {
  const token = ctx.state.auth?.credentials;
  return `api token ${token?.id ?? '?'} (${token?.name ?? 'unnamed'})`;
};

/** `data` of a Strapi REST write: the payload sits under `data`, as Strapi documents. */
const payload = (ctx: Context): unknown => {
  const body = ctx.request.body as { data?: unknown } | undefined;
  if (!body || typeof body.data !== 'object' || body.data === null) throw validationError({ data: ['Missing "data" payload in the request body.'] });
  return body.data;
};

/** A subscription as the API answers it: the document, sanitized like every core answer. */
const answer = async (strapi: Strapi, ctx: Context, row: SubscriptionRow & { documentId?: string }) => {
  const document = await strapi.documents(UID.subscription).findOne({ documentId: row.documentId! });
  const data = await strapi.contentAPI.sanitize.output(document, strapi.getModel(UID.subscription), { auth: ctx.state.auth });
  return { data, meta: {} };
};

export const plan = factories.createCoreController(UID.plan);
export const funnel = factories.createCoreController(UID.funnel);
export const video = factories.createCoreController(UID.video);

export const subscription = factories.createCoreController(UID.subscription, ({ strapi }) => {
  const subscriptions = () => getService(strapi, 'integrator-subscriptions');
  const documentId = (ctx: Context) => routeParam(ctx, 'id');

  return {
    async create(ctx: Context) {
      const row = await subscriptions().create(parse(integratorSubscribeSchema, payload(ctx)), caller(ctx));
      ctx.status = 201;
      ctx.body = await answer(strapi, ctx, row);
    },

    async update(ctx: Context) {
      ctx.body = await answer(strapi, ctx, await subscriptions().update(documentId(ctx), parse(integratorUpdateSchema, payload(ctx)), caller(ctx)));
    },

    async cancel(ctx: Context) {
      const body = (ctx.request.body as { data?: unknown } | undefined)?.data ?? {};
      ctx.body = await answer(strapi, ctx, await subscriptions().cancel(documentId(ctx), parse(cancelSchema, body), caller(ctx)));
    },

    async resume(ctx: Context) {
      ctx.body = await answer(strapi, ctx, await subscriptions().resume(documentId(ctx), caller(ctx)));
    },
  };
});

/** Users' public fields: never the password hash, token version, reset tokens or Stripe ids. */
const PUBLIC_USER_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'status',
  'is_admin',
  'email_verified_at',
  'subscription_id',
  'createdAt',
  'updatedAt',
] as const;

const MAX_PAGE_SIZE = 100;

const pick = (row: Record<string, unknown>) =>
  Object.fromEntries(['id', 'documentId', ...PUBLIC_USER_FIELDS].map((field) => [field, row[field] ?? null])) as Record<string, unknown>;

/** Reads of users (users-permissions' type), with Strapi's query params, answering public fields only. */
export const integratorUser = ({ strapi }: { strapi: Strapi }) => {
  const schema = () => strapi.getModel(UID.user);
  const documents = () => strapi.documents(UID.user);

  const sanitizedQuery = async (ctx: Context) => {
    await strapi.contentAPI.validate.query(ctx.query, schema(), { auth: ctx.state.auth });
    return (await strapi.contentAPI.sanitize.query(ctx.query, schema(), { auth: ctx.state.auth })) as {
      filters?: Record<string, unknown>;
      sort?: unknown;
      pagination?: { page?: unknown; pageSize?: unknown };
    };
  };

  return {
    async find(ctx: Context) {
      const q = await sanitizedQuery(ctx);
      const page = Math.max(1, Number(q.pagination?.page) || 1);
      const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Number(q.pagination?.pageSize) || 25));
      const filters = (q.filters ?? {}) as Parameters<ReturnType<typeof documents>['count']>[0]['filters'];
      const [rows, total] = await Promise.all([
        documents().findMany({ filters, sort: (q.sort as string) ?? 'id:asc', fields: [...PUBLIC_USER_FIELDS], start: (page - 1) * pageSize, limit: pageSize }),
        documents().count({ filters }),
      ]);
      ctx.body = {
        data: (rows as Record<string, unknown>[]).map(pick),
        meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } },
      };
    },

    async findOne(ctx: Context) {
      await sanitizedQuery(ctx);
      const documentId = routeParam(ctx, 'id');
      const row = /^[a-z0-9]{1,64}$/i.test(documentId) ? await documents().findOne({ documentId, fields: [...PUBLIC_USER_FIELDS] }) : null;
      if (!row) throw notFound();
      ctx.body = { data: pick(row), meta: {} };
    },
  };
};

/** The OpenAPI document of this API, public so tools can read it before holding a token. */
export const integratorOpenapi = ({ strapi }: { strapi: Strapi }) => ({
  /** The document, its contact the install's own (the admin's support address, else the app itself). */
  async show(ctx: Context) {
    const { app_name, app_support_url } = await getService(strapi, 'customization').publicView();
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = {
      ...INTEGRATOR_OPENAPI,
      info: { ...INTEGRATOR_OPENAPI.info, contact: { name: `${app_name} support`, url: app_support_url || env().PUBLIC_URL } },
    };
  },
});
