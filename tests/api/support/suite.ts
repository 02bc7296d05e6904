import type { Knex } from 'knex';
import { openDb } from './db';
import { adminSession, type Session } from './users';

/** What most API suites start from; read it inside tests and hooks (it is filled in `beforeAll`). */
export interface ApiSuite {
  /** A direct connection to the run's database, for asserting rows; closed after the suite. */
  readonly db: Knex;
  /** The install's administrator, signed in. */
  readonly admin: Session;
  /**
   * Cleans up after the suite's tests while the database is still open (a file's own `afterAll`
   * runs after this helper's, when the database is closed).
   */
  cleanUp(fn: () => Promise<void>): void;
}

/**
 * Registers the suite's shared setup: opens the database before the first test and closes it after
 * the last, and signs the administrator in. Call it at the top level of a test file, before the
 * file's own `beforeAll`, which can then use `suite.admin`.
 */
export const useApiSuite = (): ApiSuite => {
  let db: Knex | undefined;
  let admin: Session | undefined;
  const cleanUps: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    db = openDb();
    admin = await adminSession();
  });
  afterAll(async () => {
    try {
      for (const fn of cleanUps) await fn();
    } finally {
      await db?.destroy();
    }
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`suite.${name} is read before the suite's beforeAll ran`);
    return value;
  };
  return {
    get db() {
      return ready(db, 'db');
    },
    get admin() {
      return ready(admin, 'admin');
    },
    cleanUp(fn) {
      cleanUps.push(fn);
    },
  };
};
