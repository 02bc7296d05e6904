import type { Strapi } from '../utils/strapi';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * True when an error means the database cannot be reached (refused, restarting, connection cut,
 * no pooled connection to be had), as opposed to a query that failed on its own merits.
 */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  // PostgreSQL: connection exceptions (08…) and operator intervention (57P01–57P03: shutdown, crash, starting).
  if (code.startsWith('08') || /^57P0[1-3]$/.test(code) || NETWORK_CODES.has(code)) return true;
  if (e.name === 'KnexTimeoutError') return true;
  const message = typeof e.message === 'string' ? e.message : '';
  // knex ends a transaction whose connection dropped; the next query in it says so. Our
  // transactions run in callbacks, which never query after their own commit or rollback.
  if (/^Transaction query already complete/.test(message)) return true;
  if (
    /Connection terminated|connection is closed|Client has encountered a connection error|is not queryable|terminating connection|the database system is (starting up|shutting down)/i.test(
      message,
    )
  ) {
    return true;
  }
  // AggregateError (a refused connection on every address) carries the causes.
  return Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable);
};

/** Whether the database answers `select 1` within `timeoutMs`. */
export const databaseAnswers = async (strapi: Strapi, timeoutMs: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([strapi.db.connection.raw('select 1').then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
};
