import path from 'node:path';
import knexFactory, { type Knex } from 'knex';

/**
 * A direct connection to the run's database, for asserting rows (never for setting up what the
 * API itself should do).
 */
export const openDb = (): Knex => {
  if (process.env.DATABASE_URL) {
    return knexFactory({
      client: 'pg',
      connection: process.env.DATABASE_URL,
      searchPath: [process.env.DATABASE_SCHEMA!],
      pool: { min: 0, max: 2 },
    });
  }
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: path.resolve(process.env.DATABASE_FILENAME!) },
    useNullAsDefault: true,
  });
};

export const isPostgres = (): boolean => Boolean(process.env.DATABASE_URL);
