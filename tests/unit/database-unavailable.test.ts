import { isDatabaseUnavailable } from '../../plugins/branchify/server/src/operations/database';

describe('isDatabaseUnavailable', () => {
  it('recognises a database that is down, restarting or out of connections', () => {
    const pg = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(isDatabaseUnavailable(pg('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(pg('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isDatabaseUnavailable(pg('57P03', 'the database system is starting up'))).toBe(true);
    expect(isDatabaseUnavailable(pg('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('Knex: Timeout acquiring a connection'), { name: 'KnexTimeoutError' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Transaction query already complete, run with DEBUG=knex:tx for more info'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client was closed and is not queryable'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([pg('ECONNREFUSED'), pg('ECONNREFUSED')]))).toBe(true);
  });

  it('leaves query failures alone', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('syntax error at or near'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
