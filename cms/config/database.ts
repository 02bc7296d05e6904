import fs from 'node:fs';
import path from 'node:path';
import { env } from '@branchify/config';

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
  return {
    connection: {
      client: 'sqlite',
      connection: { filename: e.DATABASE_FILENAME },
      useNullAsDefault: true,
    },
  };
};
