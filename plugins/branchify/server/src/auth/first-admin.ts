import { query, rawRows, UID, type Strapi, type Transaction } from '../utils/strapi';

/** Install-wide one-time claims: a row per name, inserted once. */
const CLAIMS_TABLE = 'branchify_install_claims';
/** The claim the first administrator's registration takes. */
const FIRST_ADMIN = 'first-admin';

/** Inserts a named claim unless it exists (no error either way); true for the one that inserted it. */
const claimOnce = async (trx: Transaction, name: string): Promise<boolean> => {
  const now = new Date();
  const result: unknown = await trx.raw(
    `INSERT INTO ${CLAIMS_TABLE} (name, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING RETURNING id`,
    [name, now, now],
  );
  return rawRows<unknown>(result).length === 1;
};

const noAdministrator = async (strapi: Strapi): Promise<boolean> => (await query(strapi, UID.user).count({ where: { is_admin: true } })) === 0;

/**
 * The rule for the first administrator: the first registration while the install has none (accounts
 * made otherwise, such as the demo seed's, do not count), and only the one that takes the claim.
 */
export const claimFirstAdministrator = async (strapi: Strapi, trx: Transaction): Promise<boolean> =>
  (await noAdministrator(strapi)) && (await claimOnce(trx, FIRST_ADMIN));

/** Whether the next registration would become the administrator (read only; the same rule). */
export const awaitingAdministrator = async (strapi: Strapi): Promise<boolean> => {
  const [none, claim] = await Promise.all([
    noAdministrator(strapi),
    strapi.db.connection(CLAIMS_TABLE).where({ name: FIRST_ADMIN }).first<{ id: number } | undefined>('id'),
  ]);
  return none && !claim;
};
