import type { ListQuery } from '../http/paging';
import { hashPassword } from '../auth/passwords';
import { MESSAGES } from '@branchify/shared';
import { validationError } from '../http/errors';
import { isUniqueViolation } from '../utils/db-errors';
import { query, UID, type Strapi } from '../utils/strapi';
import { USER_FIELDS } from './present';
import type { UserRecord } from '../content-types/users-permissions';

export interface NewUser {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  is_admin?: boolean;
}

const SORT_COLUMNS: Record<string, string> = {
  id: 'id',
  email: 'email',
  first_name: 'first_name',
  last_name: 'last_name',
  status: 'status',
  created_at: 'createdAt',
};
export const USER_SORTABLE = Object.keys(SORT_COLUMNS);

const EMAIL_INDEX = 'up_users_email_unique';

/** Two requests with the same new email at once: the unique index lets one in, the other is told the email is taken. */
const emailWrite = async <T>(write: () => Promise<T>): Promise<T> => {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw validationError({ email: [MESSAGES.emailTaken] });
    throw error;
  }
};

/** Persistence of users (the users-permissions user type, extended with the spec's fields). */
export default ({ strapi }: { strapi: Strapi }) => {
  const users = () => query(strapi, UID.user);

  const authenticatedRoleId = async (): Promise<number | null> => {
    const role = await query(strapi, UID.role).findOne({ where: { type: 'authenticated' }, select: ['id'] });
    return role?.id ?? null;
  };

  return {
    async findRecord(id: number): Promise<UserRecord | null> {
      return users().findOne({ where: { id }, select: [...USER_FIELDS] });
    },

    /** Includes the password hash: only the auth service calls this. */
    async findByEmailWithPassword(email: string): Promise<UserRecord | null> {
      return users().findOne({ where: { email: email.toLowerCase() }, select: [...USER_FIELDS, 'password'] });
    },

    /**
     * One account per email, held by the database (emails are stored lower-cased). An install that
     * already holds two accounts with one email keeps them, and the log says so until resolved.
     */
    async ensureConstraints(): Promise<void> {
      try {
        await strapi.db.connection.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ${EMAIL_INDEX} ON up_users (email)`);
      } catch (error) {
        strapi.log.error(`[users] could not add ${EMAIL_INDEX} (accounts sharing an email must be resolved first): ${(error as Error).message}`);
      }
    },

    async emailTaken(email: string, exceptId?: number): Promise<boolean> {
      const found = await users().findOne({ where: { email: email.toLowerCase() }, select: ['id'] });
      return Boolean(found && found.id !== exceptId);
    },

    async count(): Promise<number> {
      return users().count();
    },

    async create(input: NewUser, options: { verified: boolean }): Promise<UserRecord> {
      const email = input.email.toLowerCase();
      const password = await hashPassword(input.password);
      const role = await authenticatedRoleId();
      const created = await emailWrite(() =>
        users().create({
          data: {
            username: email,
            email,
            provider: 'local',
            password,
            confirmed: options.verified,
            blocked: false,
            role,
            first_name: input.first_name,
            last_name: input.last_name,
            is_admin: Boolean(input.is_admin),
            status: 'active',
            email_verified_at: options.verified ? new Date() : null,
            token_version: 0,
          },
          select: ['id'],
        }),
      );
      return (await this.findRecord(created.id))!;
    },

    async update(id: number, data: Partial<Omit<UserRecord, 'id'>> & { password?: string; confirmed?: boolean; username?: string }) {
      await emailWrite(() => users().update({ where: { id }, data }));
      return (await this.findRecord(id))!;
    },

    /** The write ends the user's sessions and reset links (users/password-writes.ts). */
    async setPassword(id: number, plain: string): Promise<UserRecord> {
      return this.update(id, { password: await hashPassword(plain) });
    },

    async bumpTokenVersion(user: UserRecord): Promise<void> {
      await users().update({ where: { id: user.id }, data: { token_version: (user.token_version ?? 0) + 1 } });
    },

    async list(q: ListQuery): Promise<{ rows: UserRecord[]; total: number }> {
      const where = q.search
        ? {
            $or: [{ email: { $containsi: q.search } }, { first_name: { $containsi: q.search } }, { last_name: { $containsi: q.search } }],
          }
        : {};
      const orderBy = q.sort ? { [SORT_COLUMNS[q.sort.field]!]: q.sort.order } : { id: 'desc' as const };
      const [rows, total] = await Promise.all([
        users().findMany({ where, select: [...USER_FIELDS], orderBy, limit: q.perPage, offset: q.offset }),
        users().count({ where }),
      ]);
      return { rows, total };
    },
  };
};
