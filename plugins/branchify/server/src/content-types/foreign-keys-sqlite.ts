import type { Knex } from 'knex';
import { FOREIGN_KEYS, foreignKeyName, type ForeignKey, type ForeignKeyReport } from './foreign-keys';
import { connectionPool } from '../utils/strapi';

/** The parts of a better-sqlite3 connection the rebuild uses. */
interface Connection {
  pragma(source: string, options?: { simple?: boolean }): unknown;
  exec(source: string): unknown;
  prepare(source: string): { all(...params: unknown[]): unknown[]; run(...params: unknown[]): unknown };
  readonly inTransaction: boolean;
}

interface SchemaObject {
  type: 'table' | 'index' | 'trigger' | 'view';
  name: string;
  sql: string;
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

const rows = <T>(conn: Connection, sql: string, ...params: unknown[]): T[] => conn.prepare(sql).all(...params) as T[];

const exists = (conn: Connection, table: string): boolean => rows(conn, `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, table).length > 0;

/** Our keys a table lacks (its columns and the referenced table exist; Strapi created them). */
const missingKeys = (conn: Connection, table: string): ForeignKey[] => {
  const columns = new Set(rows<{ name: string }>(conn, 'SELECT name FROM pragma_table_info(?)', table).map((c) => c.name));
  const present = rows<{ from: string; table: string }>(conn, 'SELECT "from", "table" FROM pragma_foreign_key_list(?)', table);
  return FOREIGN_KEYS.filter(
    (fk) =>
      fk.table === table && columns.has(fk.column) && exists(conn, fk.references) && !present.some((p) => p.from === fk.column && p.table === fk.references),
  );
};

const missingByTable = (conn: Connection): Map<string, ForeignKey[]> => {
  const missing = new Map<string, ForeignKey[]>();
  for (const table of new Set(FOREIGN_KEYS.map((fk) => fk.table))) {
    const keys = missingKeys(conn, table);
    if (keys.length) missing.set(table, keys);
  }
  return missing;
};

/** A table's CREATE statement under another name, with the keys added as table constraints. */
const createWithKeys = (createSql: string, name: string, keys: readonly ForeignKey[]): string => {
  const head = /^CREATE TABLE\s+("(?:[^"]|"")+"|`[^`]+`|\[[^\]]+\]|[^\s(]+)/i;
  if (!head.test(createSql)) throw new Error(`unexpected table definition: ${createSql.slice(0, 60)}`);
  const renamed = createSql.replace(head, `CREATE TABLE ${quote(name)}`);
  const end = renamed.lastIndexOf(')');
  const clauses = keys.map(
    (fk) => `CONSTRAINT ${quote(foreignKeyName(fk))} FOREIGN KEY (${quote(fk.column)}) REFERENCES ${quote(fk.references)} ("id") ON DELETE ${fk.onDelete}`,
  );
  return `${renamed.slice(0, end)}, ${clauses.join(', ')}${renamed.slice(end)}`;
};

const sequenceOf = (conn: Connection, table: string): number | null => {
  if (!exists(conn, 'sqlite_sequence')) return null;
  return rows<{ seq: number }>(conn, 'SELECT seq FROM sqlite_sequence WHERE name = ?', table)[0]?.seq ?? null;
};

/**
 * SQLite's way to change a table's definition: a new table from the old one's CREATE statement
 * with the keys added, every row copied, the old one dropped, the new one renamed, its indexes and
 * triggers created again. Ids handed out never come back (the AUTOINCREMENT counter is kept).
 */
const rebuild = (conn: Connection, table: string, keys: readonly ForeignKey[]): void => {
  const objects = rows<SchemaObject>(conn, 'SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL', table);
  const create = objects.find((o) => o.type === 'table');
  if (!create) throw new Error(`no table ${table}`);
  const columns = rows<{ name: string }>(conn, 'SELECT name FROM pragma_table_info(?)', table)
    .map((c) => quote(c.name))
    .join(', ');
  const sequence = sequenceOf(conn, table);
  const temp = `${table}__fk_rebuild`;
  conn.exec(createWithKeys(create.sql, temp, keys));
  conn.exec(`INSERT INTO ${quote(temp)} (${columns}) SELECT ${columns} FROM ${quote(table)}`);
  conn.exec(`DROP TABLE ${quote(table)}`);
  conn.exec(`ALTER TABLE ${quote(temp)} RENAME TO ${quote(table)}`);
  for (const object of objects.filter((o) => o.type === 'index' || o.type === 'trigger')) conn.exec(object.sql);
  if (sequence !== null) {
    const now = sequenceOf(conn, table) ?? 0;
    conn.prepare('DELETE FROM sqlite_sequence WHERE name = ?').run(table);
    conn.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table, Math.max(sequence, now));
  }
};

/** Keys with rows pointing at nothing: ours by name, any other as table.column → parent. */
const danglingKeys = (conn: Connection): string[] => {
  const found = new Set<string>();
  const violations = rows<{ table: string; parent: string; fkid: number }>(conn, 'PRAGMA foreign_key_check');
  for (const v of new Map(violations.map((v) => [`${v.table}\u0000${v.fkid}`, v])).values()) {
    const columns = rows<{ id: number; from: string }>(conn, 'SELECT id, "from" FROM pragma_foreign_key_list(?)', v.table).filter((k) => k.id === v.fkid);
    const column = columns[0]?.from ?? '?';
    const ours = FOREIGN_KEYS.find((fk) => fk.table === v.table && fk.column === column && fk.references === v.parent);
    found.add(ours ? foreignKeyName(ours) : `${v.table}.${column} → ${v.parent}`);
  }
  return [...found].sort();
};

/**
 * Adds the missing foreign keys (SQLite), rebuilding each table that lacks some, all in one
 * transaction with key enforcement off (it cannot change inside a transaction). Rows already
 * pointing at nothing are kept and named; new rows are checked at once. A second start finds the
 * keys in place and does nothing.
 */
export const ensureForeignKeysSqlite = async (db: Knex): Promise<ForeignKeyReport> => {
  const report: ForeignKeyReport = { added: [], unvalidated: [] };
  const pool = connectionPool<Connection>(db);
  const conn = await pool.acquireConnection();
  try {
    if (!missingByTable(conn).size) return report;
    const enforced = conn.pragma('foreign_keys', { simple: true }) === 1;
    conn.pragma('foreign_keys = OFF');
    try {
      // Another process holding the write lock may have added them meanwhile: decided once locked.
      conn.exec('BEGIN IMMEDIATE');
      try {
        const missing = missingByTable(conn);
        const views = rows<SchemaObject>(conn, `SELECT type, name, sql FROM sqlite_master WHERE type = 'view' AND sql IS NOT NULL`);
        for (const view of views) conn.exec(`DROP VIEW ${quote(view.name)}`);
        for (const [table, keys] of missing) {
          rebuild(conn, table, keys);
          report.added.push(...keys.map(foreignKeyName));
        }
        for (const view of views) conn.exec(view.sql);
        report.unvalidated = danglingKeys(conn);
        conn.exec('COMMIT');
      } catch (error) {
        if (conn.inTransaction) conn.exec('ROLLBACK');
        throw error;
      }
    } finally {
      if (enforced) conn.pragma('foreign_keys = ON');
    }
    return report;
  } finally {
    await pool.releaseConnection(conn);
  }
};
