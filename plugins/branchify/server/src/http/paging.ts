import { z } from 'zod';
import type { PageMeta } from './respond';

export interface ListQuery {
  page: number;
  perPage: number;
  offset: number;
  search: string;
  sort?: { field: string; order: 'asc' | 'desc' };
}

const jsonParam = <T>(raw: unknown, schema: z.ZodType<T>): T | undefined => {
  if (typeof raw !== 'string' || raw === '') return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

const positiveInt = (raw: unknown, fallback: number, max: number): number => {
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : fallback;
};

/**
 * Reads both list protocols: the spec's `page`/`search`/`per_page`, and
 * react-admin's simple-REST `range=[0,24]`, `sort=["field","ASC"]`, `filter={"q":"…"}`.
 * `sortable` lists the fields a client may sort by (anything else is ignored, never interpolated).
 */
export const readListQuery = (
  query: Record<string, unknown>,
  sortable: readonly string[],
  defaults: { perPage?: number; maxPerPage?: number } = {},
): ListQuery => {
  const maxPerPage = defaults.maxPerPage ?? 100;
  let perPage = positiveInt(query.per_page, defaults.perPage ?? 15, maxPerPage);
  let page = positiveInt(query.page, 1, 1_000_000);

  const range = jsonParam(query.range, z.tuple([z.number().int().min(0), z.number().int().min(0)]));
  if (range && range[1] >= range[0]) {
    perPage = Math.min(range[1] - range[0] + 1, maxPerPage);
    page = Math.floor(range[0] / perPage) + 1;
  }

  const filter = jsonParam(query.filter, z.record(z.string(), z.unknown()));
  const rawSearch = typeof query.search === 'string' ? query.search : typeof filter?.q === 'string' ? filter.q : '';
  const search = rawSearch.trim().slice(0, 100);

  const sortParam = jsonParam(query.sort, z.tuple([z.string(), z.string()]));
  const sort =
    sortParam && sortable.includes(sortParam[0])
      ? { field: sortParam[0], order: sortParam[1].toLowerCase() === 'desc' ? ('desc' as const) : ('asc' as const) }
      : undefined;

  return { page, perPage, offset: (page - 1) * perPage, search, sort };
};

export const pageMeta = (q: ListQuery, total: number): PageMeta => ({
  total,
  current_page: q.page,
  last_page: Math.max(1, Math.ceil(total / q.perPage)),
  per_page: q.perPage,
});
