import { query, UID, type Strapi } from '../utils/strapi';

const TITLE_MAX = 255;
/** How many numbered copies are looked for at once (`(copy)`, `(copy 2)`, …). */
const COPIES_LOOKED_FOR = 50;

/** The n-th copy's title: ` (copy)`, then ` (copy 2)`, … after the title, shortened so the suffix fits. */
const copyTitle = (title: string, n: number): string => {
  const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
  return `${title.slice(0, TITLE_MAX - suffix.length)}${suffix}`;
};

/**
 * A title none of the owner's funnels has: the title itself when it is free, else its first free
 * copy title. Duplicating and importing both name a new funnel by it.
 */
export const distinctTitle = async (strapi: Strapi, ownerId: number, title: string): Promise<string> => {
  const candidates = [title.slice(0, TITLE_MAX), ...Array.from({ length: COPIES_LOOKED_FOR }, (_, i) => copyTitle(title, i + 1))];
  const rows: Array<{ title: string }> = await query(strapi, UID.funnel).findMany({
    where: { owner_id: ownerId, title: { $in: candidates } },
    select: ['title'],
  });
  const taken = new Set(rows.map((r) => r.title));
  return candidates.find((c) => !taken.has(c)) ?? copyTitle(title, COPIES_LOOKED_FOR + 1);
};
