import type { Context } from 'koa';
import { ROW_ID_MAX } from '@branchify/shared';
import { notFound } from './errors';

/** A route parameter as sent, '' when absent (the router's strings; Koa types `ctx.params` as `any`). */
export const routeParam = (ctx: Context, name: string): string => (ctx.params as Record<string, string | undefined>)[name] ?? '';

/** A numeric `:id` route parameter within the id column's range; anything else is a 404 (never a 500 or a query on garbage). */
export const routeId = (ctx: Context, name = 'id'): number => {
  const raw = routeParam(ctx, name);
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > ROW_ID_MAX) throw notFound();
  return Number(raw);
};
