import { STRING_COLUMN_MAX } from '@branchify/shared';
import { UID } from './uids';

/**
 * A small helper so every content type is declared the same way: no draft/publish, hidden from
 * Strapi's content-type builder (the schema is code), and with the indexes the queries need.
 */
type Attribute = Record<string, unknown> & { type: string };

export interface TypeDefinition {
  kind?: 'collectionType' | 'singleType';
  collectionName: string;
  singularName: string;
  pluralName: string;
  displayName: string;
  description?: string;
  /** Internal bookkeeping tables are hidden from the content manager too. */
  internal?: boolean;
  attributes: Record<string, Attribute>;
  indexes?: Array<{ name: string; columns: string[]; type?: 'unique' }>;
}

/** The schema Strapi loads from a content type's `schema` (what a plugin's schema.json holds). */
export const defineSchema = (def: TypeDefinition) => ({
  kind: def.kind ?? 'collectionType',
  collectionName: def.collectionName,
  info: {
    singularName: def.singularName,
    pluralName: def.pluralName,
    displayName: def.displayName,
    description: def.description ?? '',
  },
  options: { draftAndPublish: false },
  pluginOptions: {
    'content-manager': { visible: !def.internal },
    'content-type-builder': { visible: false },
  },
  attributes: def.attributes,
  indexes: def.indexes ?? [],
});

export const str = (extra: Record<string, unknown> = {}): Attribute => ({ type: 'string', ...extra });
export const text = (extra: Record<string, unknown> = {}): Attribute => ({ type: 'text', ...extra });
/**
 * Text of at most `max` characters (a limit shared with the schemas that accept it): a `string`
 * column while it fits varchar(255), else `text`.
 */
export const textOf = (max: number, extra: Record<string, unknown> = {}): Attribute =>
  max <= STRING_COLUMN_MAX ? str({ maxLength: max, ...extra }) : text({ maxLength: max, ...extra });
export const int = (extra: Record<string, unknown> = {}): Attribute => ({ type: 'integer', ...extra });
export const bigint = (extra: Record<string, unknown> = {}): Attribute => ({ type: 'biginteger', ...extra });
/** A closed set of values (stored as a string; Strapi's document service and the admin check it). */
export const enumeration = (values: readonly string[], extra: Record<string, unknown> = {}): Attribute => ({
  type: 'enumeration',
  enum: [...values],
  ...extra,
});
export const bool = (defaultValue: boolean): Attribute => ({ type: 'boolean', default: defaultValue });
/** A yes/no column without a default: rows written without it hold NULL. */
export const flag = (): Attribute => ({ type: 'boolean' });
export const date = (): Attribute => ({ type: 'datetime' });
export const json = (): Attribute => ({ type: 'json' });
export const decimal = (): Attribute => ({ type: 'decimal' });
/** Precision and scale of a money column: three decimals, for BHD, KWD and the other three-decimal currencies. */
export const MONEY_COLUMN = [15, 3] as const;
/** An amount of money in a currency's main unit (Strapi's plain decimal keeps only two decimals). */
export const money = (): Attribute => ({ type: 'decimal', columnType: { type: 'decimal', args: [...MONEY_COLUMN] } });

/**
 * A reference Strapi can populate and filter on, stored in the integer column `column` that stays
 * its own attribute (the one the code reads and writes). The relation adds no column, no link
 * table and no key of Strapi's (a falsy `referencedTable`); PostgreSQL's key comes from
 * foreign-keys.ts. Not writable: writes go through the integer column only.
 */
export const belongsTo = (target: string, column: string, extra: Record<string, unknown> = {}): Attribute => ({
  type: 'relation',
  relation: 'manyToOne',
  target,
  useJoinTable: false,
  joinColumn: { name: column, referencedColumn: 'id', referencedTable: null },
  writable: false,
  ...extra,
});

/** The users-permissions user: private, so Strapi's REST answers never populate or filter on it. */
const USER = UID.user;
export const belongsToUser = (column: string): Attribute => belongsTo(USER, column, { private: true });

/** A reference to the funnel in `funnel_id` (analytics rows). */
export const ofFunnel = (): Attribute => belongsTo(UID.funnel, 'funnel_id');
