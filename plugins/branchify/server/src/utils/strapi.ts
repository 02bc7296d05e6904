import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import type { Rows } from '../content-types';
import { UID } from '../content-types/uids';

export type Strapi = Core.Strapi;

/** The knex transaction Strapi hands to `strapi.db.transaction` callbacks. */
export type Transaction = Knex.Transaction;

/** What Strapi hands a `strapi.db.transaction` callback (its own types leave it `any`). */
export interface TransactionParams {
  trx: Transaction;
  commit: () => Promise<void>;
  rollback: () => Promise<void>;
  /** Runs after the outermost transaction commits. */
  onCommit: (callback: () => unknown) => void;
  onRollback: (callback: () => unknown) => void;
}

export { UID, type Rows };

export type Uid = (typeof UID)[keyof typeof UID];

/** Columns Strapi adds to every content type (a row type may leave them out; queries may name them). */
interface StrapiColumns {
  id: number;
  documentId: string;
  createdAt: string | Date;
  updatedAt: string | Date;
}

/** A row as the engine answers it, and what a query may name: the row's fields and Strapi's own. */
type Columns<R> = Omit<StrapiColumns, keyof R> & R;

/** Strapi's filter operators on one column (`$in: [1, 2]`, `$lt: date`, `$null: true`, ...). */
interface Operators<V> {
  $eq?: V | null;
  $ne?: V | null;
  $eqi?: V;
  $nei?: V;
  $in?: readonly V[];
  $notIn?: readonly V[];
  $lt?: V;
  $lte?: V;
  $gt?: V;
  $gte?: V;
  $between?: readonly [V, V];
  $contains?: V;
  $notContains?: V;
  $containsi?: V;
  $notContainsi?: V;
  $startsWith?: V;
  $startsWithi?: V;
  $endsWith?: V;
  $endsWithi?: V;
  $null?: boolean;
  $notNull?: boolean;
  $not?: Operators<V> | V | null;
}

/** One column's condition: a value (null for IS NULL), a list (IN), or operators. */
type Condition<V> = V | null | readonly NonNullable<V>[] | Operators<NonNullable<V>>;

/** A `where` over a row's columns, with `$and`/`$or`/`$not` nesting. */
type Where<R> = { [K in keyof Columns<R>]?: Condition<Columns<R>[K]> } & {
  $and?: ReadonlyArray<Where<R>>;
  $or?: ReadonlyArray<Where<R>>;
  $not?: Where<R>;
};

/** Values a write sets (any subset of the row's columns). */
type Data<R> = { [K in keyof Columns<R>]?: Columns<R>[K] };

type Direction = 'asc' | 'desc';
type Order<R> = { [K in keyof Columns<R>]?: Direction };
export type OrderBy<R> = keyof Columns<R> | Order<R> | ReadonlyArray<Order<R> | keyof Columns<R>>;

interface FindOneParams<R> {
  where?: Where<R>;
  orderBy?: OrderBy<R>;
}

interface FindManyParams<R> extends FindOneParams<R> {
  limit?: number;
  offset?: number;
}

/** A read that names its columns answers only those. */
type Selected<R, K extends keyof Columns<R>> = Pick<Columns<R>, K>;

/**
 * Strapi's query engine (`strapi.db.query`) for one of our content types, with the row type
 * filled in: the same object, only typed.
 */
export interface TypedQuery<R> {
  findOne<K extends keyof Columns<R>>(params: FindOneParams<R> & { select: readonly K[] }): Promise<Selected<R, K> | null>;
  findOne(params?: FindOneParams<R>): Promise<Columns<R> | null>;
  findMany<K extends keyof Columns<R>>(params: FindManyParams<R> & { select: readonly K[] }): Promise<Array<Selected<R, K>>>;
  findMany(params?: FindManyParams<R>): Promise<Array<Columns<R>>>;
  count(params?: { where?: Where<R> }): Promise<number>;
  create<K extends keyof Columns<R>>(params: { data: Data<R>; select: readonly K[] }): Promise<Selected<R, K>>;
  create(params: { data: Data<R> }): Promise<Columns<R>>;
  /** The updated row. Strapi answers null when nothing matches: callers update a row they located. */
  update<K extends keyof Columns<R>>(params: { where: Where<R>; data: Data<R>; select: readonly K[] }): Promise<Selected<R, K>>;
  update(params: { where: Where<R>; data: Data<R> }): Promise<Columns<R>>;
  /** The deleted row, or null when nothing matched. */
  delete(params: { where: Where<R> }): Promise<Columns<R> | null>;
  updateMany(params: { where?: Where<R>; data: Data<R> }): Promise<{ count: number }>;
  deleteMany(params?: { where?: Where<R> }): Promise<{ count: number }>;
}

/** The query engine for one of our uids, typed by its row. */
export const query = <U extends Uid>(strapi: Strapi, uid: U): TypedQuery<Rows[U]> => strapi.db.query(uid);

/** Writes into a table that holds one row (settings, state): the row is created by the first write. */
export const writeOnlyRow = async <R extends { id: number }>(rows: TypedQuery<R>, data: Data<R>): Promise<void> => {
  const existing = await rows.findOne({});
  // A `where` over a generic row does not resolve its keys: `{ id }` is one all the same.
  if (existing) await rows.update({ where: { id: existing.id } as Where<R>, data });
  else await rows.create({ data });
};

/** The part of knex's client (typed `any` by knex) that lends out one of the driver's own connections. */
export interface ConnectionPool<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(connection: C): Promise<unknown>;
}

export const connectionPool = <C>(knex: Knex): ConnectionPool<C> => knex.client as ConnectionPool<C>;

/** Rows of a `knex.raw` answer (knex types it `any`): an array on SQLite, `{ rows }` on PostgreSQL. */
export const rawRows = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows);
