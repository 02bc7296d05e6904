import { isUnder, normalisePath } from './request-path';

/**
 * Which request bodies are read, and where. Everything here works on the normalised path key
 * (http/request-path.ts), so a rule cannot be stepped around by spelling a path another way the
 * router still accepts.
 */

/** The app's API and Strapi's content API (the integrator API included); `key` as request-path.ts makes it. */
export const isApiPath = (key: string): boolean => isUnder(key, '/api');

/** The largest JSON body (koa-body's JSON limit, which Strapi's body parser keeps). */
export const JSON_BODY_BYTES = 1024 * 1024;

/** Methods whose body a route may act on. */
export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type BodyKind = 'none' | 'json' | 'multipart' | 'other';

/**
 * What a request declares it carries. JSON is `application/json` (any parameters); a body with
 * no Content-Type, or any other type, is `other`. A request with neither Content-Type nor a body
 * (an empty POST) carries none.
 */
export const bodyKind = (headers: Record<string, string | string[] | undefined>): BodyKind => {
  const header = headers['content-type'];
  const type = (Array.isArray(header) ? header[0] : header)?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!type) {
    const length = Number(headers['content-length'] ?? 0);
    return headers['transfer-encoding'] !== undefined || length > 0 ? 'other' : 'none';
  }
  if (type === 'application/json') return 'json';
  if (type.startsWith('multipart/')) return 'multipart';
  return 'other';
};

/**
 * How a route reads its body, besides JSON parsed before routing: `multipart` routes parse their
 * files themselves, after their authentication (middlewares/multipart.ts); `raw` routes read the
 * bytes as sent (middlewares/raw-body.ts), whatever the type; `json-later` routes read their JSON
 * only once the caller has passed the route's guards (middlewares/later-json.ts), and parse it off
 * the event loop.
 */
export type BodyMode = 'multipart' | 'raw' | 'json-later';

export interface BodyRoute {
  method: string;
  /** The registered path (`:name` segments match any one segment). */
  path: string;
  modes: readonly BodyMode[];
}

/** Finds the body modes of a request from its method and normalised path key (none: JSON parsed before routing). */
export const bodyModes = (routes: readonly BodyRoute[]) => {
  const table = routes.map((r) => ({ method: r.method, segments: normalisePath(r.path).key.split('/'), modes: r.modes }));
  return (method: string, key: string): readonly BodyMode[] => {
    const segments = key.split('/');
    const found = table.find(
      (r) => r.method === method && r.segments.length === segments.length && r.segments.every((s, i) => s.startsWith(':') || s === segments[i]),
    );
    return found?.modes ?? [];
  };
};
