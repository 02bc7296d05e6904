import type { Context } from 'koa';

export interface PageMeta {
  total: number;
  current_page: number;
  last_page: number;
  per_page: number;
}

/** The success envelope; no controller builds it by hand. */
export const ok = (ctx: Context, data: unknown, message?: string, status = 200): void => {
  ctx.status = status;
  ctx.body = message === undefined ? { success: true, data } : { success: true, message, data };
};

export const created = (ctx: Context, data: unknown, message?: string): void => ok(ctx, data, message, 201);

/**
 * A paged list. `resource` also sets the Content-Range header react-admin's simple-REST data
 * provider reads (`users 0-24/319`).
 */
export const paged = (ctx: Context, rows: unknown[], meta: PageMeta, resource?: string): void => {
  if (resource) {
    const start = (meta.current_page - 1) * meta.per_page;
    const end = rows.length ? start + rows.length - 1 : start;
    ctx.set('Content-Range', `${resource} ${start}-${end}/${meta.total}`);
    ctx.set('Access-Control-Expose-Headers', 'Content-Range');
  }
  ok(ctx, { data: rows, meta });
};

/** The failure envelope, used only by the error middleware. */
export const failureBody = (message: string, errors?: Record<string, string[]>) => (errors ? { success: false, message, errors } : { success: false, message });

/** Strapi's error names for the statuses the app answers in Strapi's REST shape. */
const STRAPI_ERROR_NAMES: Record<number, string> = {
  400: 'ValidationError',
  413: 'PayloadTooLargeError',
  415: 'UnsupportedMediaTypeError',
};

/** A failure in Strapi's REST shape, for paths that are Strapi's (/cms, its admin API) or the integrator API. */
export const strapiFailureBody = (status: number, message: string) => ({
  data: null,
  error: { status, name: STRAPI_ERROR_NAMES[status] ?? 'ApplicationError', message, details: {} },
});
