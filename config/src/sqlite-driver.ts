/**
 * The SQLite driver for the Node.js running this process. better-sqlite3 13 (Node-API 10, Node 22
 * and later) is the driver; better-sqlite3 12 aborts Node 24 as its statements are collected
 * (`RemoveEnvironmentCleanupHook: (env) != nullptr`). Node 20 lacks Node-API 10, so there the
 * package `better-sqlite3-node20` (better-sqlite3 12) stands in for it. Remove with Node 20.
 */
import Module from 'node:module';

/** Node-API version 10 arrived in Node 22.14; better-sqlite3 13 needs it. */
export const SQLITE_DRIVER: 'better-sqlite3' | 'better-sqlite3-node20' = Number(process.versions.napi) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20';

type Resolve = (request: string, ...rest: unknown[]) => string;
const moduleInternals = Module as unknown as { _resolveFilename: Resolve };
let installed = false;

/**
 * Makes `require('better-sqlite3')` (knex's, Strapi's) load the driver this Node can run. Does
 * nothing where that is better-sqlite3 itself; idempotent.
 */
export function useSupportedSqliteDriver(): void {
  if (installed || SQLITE_DRIVER === 'better-sqlite3') return;
  installed = true;
  const resolve = moduleInternals._resolveFilename;
  moduleInternals._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    return resolve.call(this, request === 'better-sqlite3' ? SQLITE_DRIVER : request, ...rest);
  };
}
