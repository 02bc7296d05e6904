/** A user row as the query engine returns it (the users-permissions type, extended). */
export interface UserRecord {
  id: number;
  documentId?: string;
  email: string;
  username?: string;
  password?: string | null;
  first_name: string | null;
  last_name: string | null;
  is_admin: boolean;
  /** 'active' or 'suspended'; the row may hold any string. */
  status: string;
  status_note: string | null;
  status_ends_at?: string | Date | null;
  email_verified_at: string | Date | null;
  subscription_id: number | null;
  token_version: number | null;
  stripe_customer_id?: string | null;
  createdAt?: string | Date;
  updatedAt?: string | Date;
}

/** The whole users-permissions row: the record plus the columns only writes and the auth service touch. */
export interface UserRow extends UserRecord {
  username: string;
  provider: string | null;
  confirmed: boolean | null;
  blocked: boolean | null;
  /** The role relation: written as the role's id, read only when populated. */
  role?: number | null;
  /** Set while the account is being deleted (billing refuses from then on). */
  deletion_started_at?: string | Date | null;
}

/** A users-permissions role. */
export interface RoleRow {
  id: number;
  name: string;
  description: string | null;
  type: string;
}
