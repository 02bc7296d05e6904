import type { Knex } from 'knex';
import { durableTransaction } from '../utils/durable-transaction';
import type { Strapi } from '../utils/strapi';

/** The player's events (the counters' tables are in rollups.ts). */
export const VIEWS = 'branchify_funnel_views';
export const INTERACTIONS = 'branchify_funnel_interactions';

export const asDate = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string | number));

export const isPostgres = (strapi: Strapi): boolean => strapi.db.dialect.client === 'postgres';

/** A durable transaction handing its work the knex transaction. */
export const inTransaction = <T>(strapi: Strapi, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> =>
  durableTransaction(strapi, ({ trx }) => work(trx as Knex.Transaction));
