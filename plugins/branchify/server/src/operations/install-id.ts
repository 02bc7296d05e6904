import { randomBytes } from 'node:crypto';
import { rawRows, type Strapi } from '../utils/strapi';
import { SETTINGS_TABLE as TABLE, type SettingRow } from '../content-types/setting';

const NAME = 'install-id';

/** Per Strapi instance (tests start several in one process): the id once read. */
const known = new WeakMap<Strapi, Promise<string>>();

/**
 * This install's id: random, made by whichever process first needs it and kept in the database,
 * so every process of one install shares it and no two installs share one (not an environment
 * variable, which copies of one configuration would share). It names the install to services
 * several installs may share, e.g. Stripe's idempotency keys and metadata.
 */
export const installId = (strapi: Strapi): Promise<string> => {
  let id = known.get(strapi);
  if (!id) {
    id = (async () => {
      const now = new Date();
      // Of processes starting at once, one inserts; the others keep the row and read it.
      await strapi.db.connection.raw(`INSERT INTO ${TABLE} (name, value, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`, [
        NAME,
        `bfi_${randomBytes(12).toString('hex')}`,
        now,
        now,
      ]);
      const rows = rawRows<Pick<SettingRow, 'value'>>(await strapi.db.connection.raw(`SELECT value FROM ${TABLE} WHERE name = ?`, [NAME]));
      const value = rows[0]?.value;
      if (!value) throw new Error('the install id could not be stored');
      return value;
    })();
    known.set(strapi, id);
    // A failed read (the database is down) is tried again next time.
    id.catch(() => known.delete(strapi));
  }
  return id;
};
