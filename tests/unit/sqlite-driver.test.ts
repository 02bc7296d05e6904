import { spawnSync } from 'node:child_process';
import { SQLITE_DRIVER } from '@branchify/shared/node';

/**
 * The SQLite driver the running Node gets: better-sqlite3 13 where Node-API 10 exists (Node 22.14
 * and later), its better-sqlite3 12 stand-in on Node 20. Checked in a plain Node process, as the
 * server loads it (knex's `require('better-sqlite3')`), through a thousand collected statements.
 */
describe('SQLite driver for this Node', () => {
  it('is better-sqlite3 13 from Node-API 10 on, the Node 20 stand-in before', () => {
    const napi = Number(process.versions.napi);
    expect(SQLITE_DRIVER).toBe(napi >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20');
  });

  it("loads under the name knex asks for and survives its statements' collection", () => {
    const script = `
      const { useSupportedSqliteDriver } = require('@branchify/shared/node');
      useSupportedSqliteDriver();
      const Database = require('better-sqlite3');
      const db = new Database(':memory:');
      let sum = 0;
      for (let i = 0; i < 1000; i++) sum += db.prepare('SELECT ? + 1 AS x').get(i).x;
      global.gc();
      db.close();
      console.log(JSON.stringify({ sum, file: require.resolve('better-sqlite3') }));
    `;
    const run = spawnSync(process.execPath, ['--expose-gc', '-e', script], { cwd: __dirname, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as { sum: number; file: string };
    expect(out.sum).toBe(500500);
    expect(out.file).toContain(`/node_modules/${SQLITE_DRIVER}/`);
  });
});
