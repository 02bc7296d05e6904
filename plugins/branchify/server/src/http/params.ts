import type { Context } from 'koa';
import { notFound } from './errors';

/** A numeric `:id` route parameter; anything else is a 404 (never a 500 or a query on garbage). */
export const routeId = (ctx: Context, name = 'id'): number => {
  const raw = String(ctx.params[name] ?? '');
  if (!/^\d{1,12}$/.test(raw)) throw notFound();
  return Number(raw);
};
