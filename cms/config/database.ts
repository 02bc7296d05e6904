import fs from 'node:fs';
import path from 'node:path';
import { env, useSupportedSqliteDriver } from '@branchify/shared/node';

export default () => {
  const e = env();
  if (e.DATABASE_URL) {
    return {
      connection: {
        client: 'postgres',
        connection: {
          connectionString: e.DATABASE_URL,
          ssl: e.DATABASE_SSL ? { rejectUnauthorized: true } : false,
          schema: e.DATABASE_SCHEMA,
        },
        searchPath: [e.DATABASE_SCHEMA],
        pool: { min: e.DATABASE_POOL_MIN, max: e.DATABASE_POOL_MAX },
        acquireConnectionTimeout: 60_000,
      },
    };
  }
  fs.mkdirSync(path.dirname(e.DATABASE_FILENAME), { recursive: true });
  useSupportedSqliteDriver();
  return {
    connection: {
      client: 'sqlite',
      connection: { filename: e.DATABASE_FILENAME },
      useNullAsDefault: true,
      pool: {
        // WAL: readers never wait for the writer, and a commit is one fsync of the log instead of
        // a rollback journal's several. synchronous=FULL keeps every acknowledged commit on disk.
        afterCreate: (conn: { pragma: (sql: string) => unknown }, done: (err: Error | null, conn: unknown) => void) => {
          conn.pragma('journal_mode = WAL');
          conn.pragma('synchronous = FULL');
          conn.pragma('busy_timeout = 5000');
          done(null, conn);
        },
      },
    },
  };
};
