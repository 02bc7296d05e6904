import type { AuthProvider } from 'react-admin';
import { api, getAccessToken, refreshSession, setAccessToken } from '../shared/api';
import { initials } from '../shared/format';
import type { UserResource } from '@branchify/shared';

/**
 * The admin panel's auth provider (module-level, as react-admin's demo keeps it): it asks the same
 * API client as the rest of the app, so it never holds a copy of the session that could go stale.
 * The app's guard admits only admins to /admin; this provider keeps the session alive and signs out.
 */
export const authProvider: AuthProvider = {
  login: () => Promise.resolve(),
  checkAuth: async () => {
    if (!getAccessToken() && !(await refreshSession())) throw new Error('Unauthenticated.');
  },
  checkError: (error: { status?: number }) => {
    if (error?.status !== 401) return Promise.resolve();
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- react-admin's checkError contract: reject with the error it was given, as received
    return Promise.reject(error);
  },
  logout: async () => {
    await api.post('auth/logout').catch(() => undefined);
    setAccessToken(null);
    window.location.assign('/login');
    return false;
  },
  getIdentity: async () => identityOf((await api.get<UserResource>('auth/user')).data),
};

/** The identity react-admin shows for a user (the account button's name and initials). */
export const identityOf = (user: UserResource) => ({
  id: user.id,
  fullName: `${user.first_name} ${user.last_name}`.trim(),
  initials: initials(user.first_name, user.last_name),
});

/** Where react-admin keeps the identity (useGetIdentity's query key). */
export const IDENTITY_KEY = ['auth', 'getIdentity'] as const;
