import type { UserResource } from '@branchify/shared';
import { ROUTES } from '../../shared/routes';

/** The user page of one user: /admin/users/{id}. */
export const userPath = (id: number | string): string => `${ROUTES.UsersList}/${id}`;

/** 'First Last', or the email when the account has no name. */
export const fullName = (user: Pick<UserResource, 'first_name' | 'last_name' | 'email'>): string => `${user.first_name} ${user.last_name}`.trim() || user.email;
